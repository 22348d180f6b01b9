package wink_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// benchDocs is the index the search handler scans.
var benchDocs = func() []string {
	docs := make([]string, 200)
	for i := range docs {
		docs[i] = "docs/page" + strconv.Itoa(i) + ".md: how the filesystem snapshot and rollback of page " + strconv.Itoa(i) + " work"
	}
	return docs
}()

// searchHandler is a realistic small handler: it scans the index.
func searchHandler(_ *wink.ToolContext, p searchParams) (wink.ToolResult[searchResult], error) {
	var r searchResult
	for _, d := range benchDocs {
		if strings.Contains(d, "page1") && strings.Contains(d, "rollback") {
			r.Total++
			if len(r.Matches) < p.Limit {
				r.Matches = append(r.Matches, d[:strings.IndexByte(d, ':')])
			}
		}
	}
	return wink.OK(r, "Found matches."), nil
}

// BenchmarkDispatchTxn compares, side by side, a dispatch without a session,
// filesystem or policy ("plain") with the same dispatch inside a transaction
// over a session and a Memory filesystem, with one policy ("txn"), for a
// handler that does nothing and for a small search handler.
func BenchmarkDispatchTxn(b *testing.B) {
	handlers := []struct {
		name string
		h    handlerFunc
	}{{"search", searchHandler}, {"noop", noopValue}}
	pol := policy.NewSequentialDependency(map[string][]string{"deploy": {"search_docs"}})
	for _, h := range handlers {
		for _, txn := range []bool{false, true} {
			name := h.name + "/plain"
			if txn {
				name = h.name + "/txn"
			}
			b.Run(name, func(b *testing.B) {
				d := &wink.Dispatcher{Registry: wink.MustRegistry([]*wink.Tool{newSearchDef("search_docs", h.h, nil)})}
				if txn {
					fs := vfs.NewMemory()
					for i := range 100 {
						fs.Write("src/f"+strconv.Itoa(i)+".go", []byte("package src"))
					}
					d.Session = session.New()
					d.Filesystem = fs
					d.Policies = []wink.Policy{pol}
				}
				call := wink.Call{ID: "call_1", Name: "search_docs", Arguments: benchArgs}
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					out, err := d.Dispatch(ctx, call)
					if err != nil || !out.Success {
						b.Fatal(out, err)
					}
				}
			})
		}
	}
}
