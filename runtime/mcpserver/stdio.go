package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the longest line LineTransport reads when
// MaxLineBytes is zero (the SDK's stdio default).
const DefaultMaxLineBytes = 16 << 20

// LineTransport is an mcp.Transport of newline-delimited JSON-RPC messages
// (MCP's stdio transport) that survives malformed input: every line is
// checked before the SDK reads it, and one that is not a JSON-RPC 2.0
// message is answered with the error the JSON-RPC specification names
// (-32700 Parse error for what is not JSON, -32600 Invalid Request for JSON
// that is not a message, a batch included; id null when the line's id
// cannot be read) while the connection goes on. The SDK's own
// mcp.StdioTransport ends the connection at the first such line.
// ServeStdio uses it.
type LineTransport struct {
	// Reader delivers the client's lines; nil means os.Stdin. It is closed
	// when the connection closes.
	Reader io.ReadCloser
	// Writer receives the server's lines; nil means os.Stdout (never
	// closed). Another Writer is closed with the connection when it is an
	// io.Closer.
	Writer io.Writer
	// MaxLineBytes bounds one line; a longer line is answered with an
	// Invalid Request error and skipped. Zero means DefaultMaxLineBytes.
	MaxLineBytes int
	// Logger, if set, receives a record of every line answered with an
	// error.
	Logger *slog.Logger
}

// Connect implements mcp.Transport.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		r:        t.Reader,
		w:        t.Writer,
		max:      t.MaxLineBytes,
		logger:   t.Logger,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
	}
	if c.r == nil {
		c.r = os.Stdin
	}
	if c.w == nil {
		c.w = os.Stdout
	} else if wc, ok := c.w.(io.Closer); ok {
		c.wc = wc
	}
	if c.max <= 0 {
		c.max = DefaultMaxLineBytes
	}
	go c.readLoop()
	return c, nil
}

// lineConn is a connection of LineTransport.
type lineConn struct {
	r      io.ReadCloser
	w      io.Writer
	wc     io.Closer // w, when it is to be closed
	max    int
	logger *slog.Logger

	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once

	writeMu sync.Mutex
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// errLineTooLong is the message of the error answering an over-long line.
func (c *lineConn) errLineTooLong() string {
	return "Invalid Request: the line is longer than " + strconv.Itoa(c.max) + " bytes"
}

// readLoop reads lines until the reader fails, answering the bad ones and
// handing the others to Read. It runs in its own goroutine so that Close
// unblocks Read even when the reader cannot be interrupted.
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > c.max+2 { // +2: the line's own "\r\n"
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			c.deliver(readResult{err: err})
			return
		}
		if tooLong {
			c.answer(errorResponse(nil, codeInvalidRequest, c.errLineTooLong()))
		} else if !c.handle(line) {
			return
		}
		line, tooLong = nil, false
		if err != nil { // io.EOF
			c.deliver(readResult{err: io.EOF})
			return
		}
	}
}

// handle checks one line and answers it or hands it to Read; false means
// the connection is closed.
func (c *lineConn) handle(line []byte) bool {
	line = trimSpace(line)
	if len(line) == 0 {
		return true
	}
	if reply := checkLine(line); reply != nil {
		c.answer(reply)
		return true
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil { // checkLine let through something the SDK rejects
		c.answer(errorResponse(nil, codeInvalidRequest, "Invalid Request: "+err.Error()))
		return true
	}
	return c.deliver(readResult{msg: msg})
}

// deliver hands r to Read; false means the connection is closed.
func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// answer writes an error response to a line the SDK never sees.
func (c *lineConn) answer(reply []byte) {
	if c.logger != nil {
		c.logger.Warn("mcpserver: answered a malformed line", "response", string(reply))
	}
	if err := c.writeLine(reply); err != nil && c.logger != nil {
		c.logger.Error("mcpserver: writing an error response", "error", err.Error())
	}
}

// trimSpace removes JSON whitespace at both ends of b.
func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	default:
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

// writeLine writes data and a newline as one write.
func (c *lineConn) writeLine(data []byte) error {
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(buf)
	return err
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.r.Close()
		if c.wc != nil {
			err = errors.Join(err, c.wc.Close())
		}
	})
	return err
}

// SessionID implements mcp.Connection: a stdio connection has no session
// id.
func (c *lineConn) SessionID() string { return "" }
