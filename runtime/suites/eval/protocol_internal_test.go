package eval

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// In an evaluator started with WINK_EVAL_TEST_STDOUT, write its (Go-quoted) bytes to standard output
// before anything else: package variables are initialised before the package's init functions, so this
// runs before the child serves its program, as an init function of another package of the executable
// would.
var _ = func() bool {
	if q := os.Getenv("WINK_EVAL_TEST_STDOUT"); q != "" {
		if b, err := strconv.Unquote(q); err == nil {
			os.Stdout.WriteString(b)
		}
	}
	return true
}()

// The class: whatever the evaluator's standard output carries before or instead of its answers (an
// init function printing, a frame too large, of no known kind, or malformed), the host is not harmed
// and does not believe it: the call fails, its writes undone, saying the evaluator answered out of
// protocol; a frame that happens to be well formed (a print) is taken as what it says.
func TestEvalChildOutOfProtocolFailsTheCall(t *testing.T) {
	const outOfProtocol = "The evaluator process answered out of protocol and was stopped; everything the program wrote was undone."
	for _, c := range []struct{ name, stdout, want string }{
		{"init prints text", "hello from an init function\n", outOfProtocol},
		{"huge frame", "P\xff\xff\xff\xff", outOfProtocol},
		{"unknown kind", "Z\x00\x00\x00\x00", outOfProtocol},
		{"malformed done", "D\x00\x00\x00\x01\x00", outOfProtocol},
		{"malformed write", "W\x00\x00\x00\x01\xff", outOfProtocol},
		{"result too large", "D\x00\x00\x00\x08\x00\x01\x00\xff\xff\x03\x00\x00", outOfProtocol},
		{"a print frame", "P\x00\x00\x00\x05hello", "The program finished after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			testChildEnv = []string{"WINK_EVAL_TEST_STDOUT=" + strconv.Quote(c.stdout)}
			defer func() { testChildEnv = nil }()
			fs := vfs.NewMemory()
			d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: fs, Session: session.New()}
			out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval",
				Arguments: []byte(`{"source":` + strconv.Quote("write_file('new.txt', 'x')\nprint('done')") + `}`)})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.Output, c.want) {
				t.Fatalf("outcome %q, want the prefix %q", out.Output, c.want)
			}
			if c.want == outOfProtocol {
				if out.Success {
					t.Fatal("succeeded")
				}
				if _, err := fs.Stat("new.txt"); err == nil {
					t.Error("new.txt survived the failed call")
				}
			}
		})
	}
}
