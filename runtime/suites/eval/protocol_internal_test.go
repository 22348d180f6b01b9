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

// In an evaluator started with WINK_EVAL_TEST_PRINTS ("END:POS:quoted bytes"), each program's print
// buffer starts with those bytes and that end word instead of empty, and the child appends at POS: what
// a child that scribbles over the buffer leaves there.
var _ = func() bool {
	if v := os.Getenv("WINK_EVAL_TEST_PRINTS"); v != "" {
		f := strings.SplitN(v, ":", 3)
		if len(f) != 3 {
			return true
		}
		end, err1 := strconv.ParseUint(f[0], 10, 32)
		pos, err2 := strconv.Atoi(f[1])
		b, err3 := strconv.Unquote(f[2])
		if err1 == nil && err2 == nil && err3 == nil {
			testPrints = func(p *printBuf) {
				if p != nil {
					copy(p.mem[8:], b)
					*p.end() = uint32(end)
					p.pos = pos
				}
			}
		}
	}
	return true
}()

// The class: whatever the evaluator's standard output carries before or instead of its answers (an
// init function printing, a frame too large, of no known kind, or malformed), the host is not harmed
// and does not believe it: the call fails, its writes undone, saying the evaluator answered out of
// protocol; a frame that happens to be well formed (a print) is taken as what it says.
func TestEvalChildOutOfProtocolFailsTheCall(t *testing.T) {
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
			evalOutOfProtocol(t, c.want)
		})
	}
	if _, f, _ := newPrints(); f == nil {
		return // no print buffer here
	} else {
		f.Close()
	}
	// The same for the print buffer's content, which the parent reads with the child's next frame.
	for _, c := range []struct{ name, prints, want string }{
		{"print entry past the end", "4:4:" + strconv.Quote("\x05abc"), outOfProtocol},
		{"print buffer end past its size", "4294967295:5:" + strconv.Quote("\xff\xff\xff\xff\x0f"), outOfProtocol},
		// The parent reads "hello" with the write_file request; the child's print then ends the buffer
		// before it.
		{"print buffer end before what the parent read", "6:0:" + strconv.Quote("\x05hello"), outOfProtocol},
		{"a well-formed print", "6:6:" + strconv.Quote("\x05hello"), "The program finished after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			testChildEnv = []string{"WINK_EVAL_TEST_PRINTS=" + c.prints}
			evalOutOfProtocol(t, c.want)
		})
	}
}

const outOfProtocol = "The evaluator process answered out of protocol and was stopped; everything the program wrote was undone."

// evalOutOfProtocol runs a program that writes a file and prints in an evaluator started with
// testChildEnv, and checks that the outcome starts with want (and, for the out-of-protocol text, that
// the call failed and its write was undone).
func evalOutOfProtocol(t *testing.T, want string) {
	t.Helper()
	defer func() { testChildEnv = nil }()
	fs := vfs.NewMemory()
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Filesystem: fs, Session: session.New()}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "eval",
		Arguments: []byte(`{"source":` + strconv.Quote("write_file('new.txt', 'x')\nprint('done')") + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Output, want) {
		t.Fatalf("outcome %q, want the prefix %q", out.Output, want)
	}
	if want == outOfProtocol {
		if out.Success {
			t.Fatal("succeeded")
		}
		if _, err := fs.Stat("new.txt"); err == nil {
			t.Error("new.txt survived the failed call")
		}
	}
}
