package stdiofuzz_test

import (
	"strings"
	"testing"

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
		srv, err := mcpserver.New(&wink.Dispatcher{Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		c := linetest.Connect(t, srv, 0)
		c.Send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
		if got := c.Recv(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"init","result":`) {
			t.Fatalf("initialize answered %s", got)
		}
		c.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		c.Send(line)
		c.Send(`{"jsonrpc":"2.0","id":"probe-after-fuzz","method":"ping"}`)
		for {
			got := c.Recv()
			if got == `{"jsonrpc":"2.0","id":"probe-after-fuzz","result":{}}` || strings.HasPrefix(got, `{"jsonrpc":"2.0","id":"probe-after-fuzz","error":`) {
				return
			}
		}
	})
}
