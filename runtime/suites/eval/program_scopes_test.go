package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/suites/eval/internal/programtest"
	"github.com/winkgen/wink/runtime/wink"
)

// readSecretTool is a read-only tool a program may call, needing secrets:read.
var readSecretTool = wink.NewTool(wink.Spec{
	Name:         "read_secret",
	Description:  "Reads the secret.",
	ParamsSchema: []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
	Signature:    "read_secret() -> None  # Reads the secret.",
	ReadOnly:     true,
	Scopes:       []string{"secrets:read"},
}, &wink.Funcs[wink.NoParams, wink.NoValue]{
	Decode:       wink.DecodeNoParams,
	EncodeParams: wink.EncodeNoParams,
	EncodeResult: func(dst []byte, _ *wink.NoValue) []byte { return append(dst, "null"...) },
	Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
		return wink.OK(wink.NoValue{}, "the secret is 42"), nil
	},
})

// TestProgramCallsActForTheCaller: a program's inner calls are dispatched for the principal of the
// program's call: one whose token lacks a tool's scopes cannot reach the tool through a program, and
// one holding them can.
func TestProgramCallsActForTheCaller(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(append(programtest.WinkTools(), readSecretTool, eval.Program))}
	run := func(scopes ...string) wink.Outcome {
		ctx := wink.WithPrincipal(context.Background(), &wink.Principal{Subject: "alice", Scopes: scopes})
		out, err := d.Dispatch(ctx, wink.Call{ID: "p1", Name: "run_program", Arguments: []byte(src("read_secret()\nprint('read')"))})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := run("notes:write"); out.Success || !strings.Contains(out.Output, "secrets:read") || strings.Contains(out.Output, "the secret is 42") {
		t.Fatalf("a program of a caller without secrets:read: %v %q", out.Success, out.Output)
	}
	if out := run("secrets:read"); !out.Success {
		t.Fatalf("a program of a caller with secrets:read: %q", out.Output)
	}
}
