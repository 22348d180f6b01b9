package eval_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// BenchmarkEval measures one small eval call end to end through the dispatcher.
func BenchmarkEval(b *testing.B) {
	fs := vfs.NewMemory()
	if err := fs.Write("data.txt", []byte("a\nb\nc\n")); err != nil {
		b.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(eval.WinkTools()), Filesystem: fs, Session: session.New()}
	call := wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":"print(len(read_file('data.txt').splitlines()))\nresult = len([n * n for n in range(100)])"}`)}
	for b.Loop() {
		out, err := d.Dispatch(context.Background(), call)
		if err != nil || !out.Success {
			b.Fatal(out.Output, err)
		}
	}
}
