package sandbox

import "sync"

// capture keeps the first max bytes written to it and counts the rest; past hard bytes in all it calls
// stop once (the command is killed).
type capture struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	total   int64
	hard    int64
	stop    func()
	stopped bool
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	c.total += int64(len(p))
	if c.total > c.hard && !c.stopped {
		c.stopped = true
		c.stop()
	}
	return len(p), nil
}

func (c *capture) result() (out []byte, total int64, overflow bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.total, c.stopped
}
