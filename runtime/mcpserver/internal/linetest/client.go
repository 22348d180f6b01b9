package linetest

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
)

// Client speaks raw lines to a server connected with mcpserver.LineTransport over pipes.
type Client struct {
	T     testing.TB
	W     *io.PipeWriter // the server's input: a test may write to it directly
	lines chan string
}

// Connect serves srv over a LineTransport of pipes (max is MaxLineBytes, 0 the default) and returns the
// client's end; the connection ends with the test.
func Connect(t testing.TB, srv *mcp.Server, max int) *Client {
	t.Helper()
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcpserver.LineTransport{Reader: serverR, Writer: serverW, MaxLineBytes: max}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{T: t, W: clientW, lines: make(chan string, 16)}
	go func() {
		defer close(c.lines)
		br := bufio.NewReader(clientR) // ReadString returns a whole line, however long
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				return
			}
			c.lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	t.Cleanup(func() {
		clientW.Close()
		ss.Wait()
		clientR.Close()
	})
	return c
}

// Send writes one line (a newline is added).
func (c *Client) Send(line string) {
	c.T.Helper()
	if _, err := io.WriteString(c.W, line+"\n"); err != nil {
		c.T.Fatalf("writing a line: %v (the server closed the connection)", err)
	}
}

// Recv returns the server's next line.
func (c *Client) Recv() string {
	c.T.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.T.Fatal("the server closed the connection")
		}
		return l
	case <-time.After(10 * time.Second):
		c.T.Fatal("no answer from the server in 10s")
	}
	return ""
}
