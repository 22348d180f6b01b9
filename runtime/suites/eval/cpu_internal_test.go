//go:build linux

package eval

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// In an evaluator started with WINK_EVAL_TEST_NO_XCPU, SIGXCPU is not handled (set before childMain
// runs, as in protocol_internal_test.go).
var _ = func() bool {
	if os.Getenv("WINK_EVAL_TEST_NO_XCPU") != "" {
		exitOnXCPU = false
	}
	return true
}()

// The CPU bound holds when the evaluator does not exit on SIGXCPU (a runtime too wedged to run the
// handler): the kernel kills it at the hard limit, a second later, and the call says which bound it hit.
func TestEvalCPUBoundHoldsWithoutTheSignalHandler(t *testing.T) {
	testChildEnv = []string{"WINK_EVAL_TEST_NO_XCPU=1"}
	defer func() { testChildEnv = nil }()
	reg, err := resources.NewRegistry(resources.Instance(ConfigKey, &Config{CPUTime: time.Second, Timeout: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: vfs.NewMemory(), Session: session.New(), Resources: rc}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	program := "a = [[[[0] * 1000] * 1000] * 1000] * 1000\nb = [[[[0] * 1000] * 1000] * 1000] * 1000\nx = a == b"
	out, err := d.Dispatch(ctx, wink.Call{ID: "c", Name: "eval", Arguments: []byte(`{"source":` + strconv.Quote(program) + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	if out.Success || !strings.HasPrefix(out.Output, "The program used more than 1s of CPU time, the evaluator's bound, and was stopped") {
		t.Fatalf("outcome %q", out.Output)
	}
}
