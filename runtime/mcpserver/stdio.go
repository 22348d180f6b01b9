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
	"github.com/winkgen/wink/runtime/strictjson"
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
		answered: make(chan struct{}, 1),
		open:     map[jsonrpc.ID]struct{}{},
		asked:    map[jsonrpc.ID]struct{}{},
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

	// Requests read and not yet answered: at end of input, the connection reports io.EOF (which makes
	// the SDK close it) only once every one of them has been answered (DESIGN-notes below).
	openMu   sync.Mutex
	open     map[jsonrpc.ID]struct{}
	asked    map[jsonrpc.ID]struct{} // requests sent to the client, not yet answered
	eof      bool                    // input ended: requests to the client fail at once
	answered chan struct{}           // signalled when a request is answered
}

// DESIGN-notes. The SDK handles requests concurrently and closes the
// connection as soon as Read reports an error, cancelling what is in flight and dropping its answers:
// a client piping requests and closing its input lost answers to requests already read (even
// initialize's). So Read reports io.EOF only after every request read before the end of input has
// been answered: readLoop records each request's id when it hands the request to Read, Write removes
// it when the response goes out, and at the end of input readLoop waits for the set to be empty. A
// request the server sends to the client after the end of input (sampling, elicitation, roots) can
// never be answered, so Write fails it at once, and one sent before is answered at the end of input
// with the same error (readLoop hands the SDK an error response for it), so that the handler waiting
// for it goes on. A handler that
// never returns keeps the process alive, as it would with the input open; the context given to
// ServeStdio still ends it.

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
			c.drain()
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
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.openMu.Lock()
		delete(c.asked, resp.ID)
		c.openMu.Unlock()
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.openMu.Lock()
		if req.ID.IsValid() {
			c.open[req.ID] = struct{}{}
		} else if req.Method == "notifications/cancelled" {
			// A cancelled request may get no answer: it is not waited for.
			if id, ok := cancelledID(req.Params); ok {
				delete(c.open, id)
			}
		}
		c.openMu.Unlock()
	}
	return c.deliver(readResult{msg: msg})
}

// cancelledID reads the requestId of notifications/cancelled params.
func cancelledID(params []byte) (jsonrpc.ID, bool) {
	var d strictjson.Decoder
	d.Reset(params, strictjson.Limits{MaxBytes: len(params) + 1, MaxDepth: 128, MaxErrors: 1})
	var id jsonrpc.ID
	found := false
	if d.ObjectStart() {
		for d.NextKey() {
			if string(d.Key()) != "requestId" {
				d.Skip()
				continue
			}
			switch d.Peek() {
			case strictjson.KindString:
				if v, ok := d.String(); ok {
					id, _ = jsonrpc.MakeID(v)
					found = true
				}
			case strictjson.KindNumber:
				if v, ok := d.Int(-1<<53+1, 1<<53-1); ok {
					id, _ = jsonrpc.MakeID(float64(v))
					found = true
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	return id, found
}

// drain waits, at the end of input, until every request read has been answered or the connection is
// closed.
func (c *lineConn) drain() {
	c.openMu.Lock()
	c.eof = true
	asked := make([]jsonrpc.ID, 0, len(c.asked))
	for id := range c.asked {
		asked = append(asked, id)
	}
	clear(c.asked)
	c.openMu.Unlock()
	for _, id := range asked {
		if !c.deliver(readResult{msg: &jsonrpc.Response{ID: id, Error: errInputEnded}}) {
			return
		}
	}
	for {
		c.openMu.Lock()
		n := len(c.open)
		c.openMu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-c.closed:
			return
		}
	}
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

// errInputEnded fails a request to the client sent after the client's input ended. Its code is the
// SDK's "rejected by transport" (-32005), which fails that one request without taking the connection
// down (any other write error makes the SDK cancel every call in flight).
var errInputEnded = &jsonrpc.Error{Code: -32005, Message: "mcpserver: the client's input has ended; it cannot answer a request"}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	var answers, asks jsonrpc.ID
	switch m := msg.(type) {
	case *jsonrpc.Response:
		answers = m.ID
	case *jsonrpc.Request:
		if m.ID.IsValid() {
			asks = m.ID
			c.openMu.Lock()
			eof := c.eof
			if !eof {
				c.asked[asks] = struct{}{}
			}
			c.openMu.Unlock()
			if eof {
				return errInputEnded
			}
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err == nil {
		err = c.writeLine(data)
	}
	if err != nil && asks.IsValid() { // the SDK gets the error: nothing waits for an answer
		c.openMu.Lock()
		delete(c.asked, asks)
		c.openMu.Unlock()
	}
	if answers.IsValid() {
		// Answered, written or not: a response that cannot be written will never be.
		c.openMu.Lock()
		delete(c.open, answers)
		c.openMu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
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
