package loop_test

import (
	"context"
	"slices"
	"testing"

	"github.com/winkgen/wink/runtime/internal/callertools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

type requestRecorder struct{ reqs []loop.Request }

func (r *requestRecorder) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	r.reqs = append(r.reqs, req)
	return loop.Response{Text: "done"}, nil
}

// The loop never offers a tool only programs may call (callers=program) as one of the model's own: it
// goes in Request.Programs, for providers that run programs.
func TestProgramOnlyToolsGoToPrograms(t *testing.T) {
	rec := &requestRecorder{}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(callertools.WinkTools())}
	if _, err := loop.Run(context.Background(), loop.Config{Provider: rec, Dispatcher: d}, []loop.Message{loop.UserMessage("go")}); err != nil {
		t.Fatal(err)
	}
	req := rec.reqs[0]
	if got := specNames(req.Tools); slices.Contains(got, "audit") || !slices.Contains(got, "refund") || len(got) != len(d.Registry.Tools())-1 {
		t.Errorf("Tools = %v", got)
	}
	if got := specNames(req.Programs); !slices.Equal(got, []string{"audit"}) {
		t.Errorf("Programs = %v", got)
	}
}
