package stdiofuzz_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/example/cmd/mcpserver/shapes"
	"github.com/winkgen/wink/example/tools"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/internal/linetest"
	"github.com/winkgen/wink/runtime/wink"
)

// FuzzStdioLine sends an arbitrary line, then a ping: whatever the line, the server must answer the
// ping (the connection survives). The line may itself be a request with the probe's id (the fuzzer can
// write any id): an error answering the probe's id (a duplicate id, say) shows the connection alive too.
// Each input gets a server of its own (mcpserver.New) serving the example tools, as runtime/mcpserver's
// tests serve them; only the registry, which nothing changes, is shared.
func FuzzStdioLine(f *testing.F) {
	for _, bl := range linetest.BadLines {
		if len(bl.Line) < 4096 {
			f.Add(bl.Line)
		}
	}
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + linetest.Deep(200) + `}}`)
	f.Add(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"get_status"}}`)
	f.Add(`{"jsonrpc":"2.0","id":2,"result":{}}`)
	f.Add(`{"jsonrpc":"2.0","id":"\ud800","method":"ping"}`)
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"zz"}}`)
	f.Add("\xef\xbb\xbf{}")
	reg, err := wink.NewRegistry(append(tools.WinkTools(), shapes.WinkTools()...))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c := startLineServer(t, &wink.Dispatcher{Registry: reg})
		c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
		if got := c.recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"init","result":`) {
			t.Fatalf("initialize answered %s", got)
		}
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		c.send(line)
		c.send(`{"jsonrpc":"2.0","id":"probe-after-fuzz","method":"ping"}`)
		for {
			got := c.recv()
			if got == `{"jsonrpc":"2.0","id":"probe-after-fuzz","result":{}}` || strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"probe-after-fuzz","error":`) {
				return
			}
		}
	})
}

// lineClient speaks raw lines to a server connected with mcpserver.LineTransport over pipes.
type lineClient struct {
	t     *testing.T
	w     *io.PipeWriter
	lines chan string
}

// startLineServer serves d's tools over a LineTransport of pipes, with the default line bound.
func startLineServer(t *testing.T, d *wink.Dispatcher) *lineClient {
	t.Helper()
	srv, err := mcpserver.New(d)
	if err != nil {
		t.Fatal(err)
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcpserver.LineTransport{Reader: serverR, Writer: serverW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &lineClient{t: t, w: clientW, lines: make(chan string, 16)}
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

// send writes one line (a newline is added).
func (c *lineClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		c.t.Fatalf("writing a line: %v (the server closed the connection)", err)
	}
}

// recv returns the server's next line.
func (c *lineClient) recv() string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the server closed the connection")
		}
		return l
	case <-time.After(10 * time.Second):
		c.t.Fatal("no answer from the server in 10s")
	}
	return ""
}
