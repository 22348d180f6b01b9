package eval_test

import (
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/suites/eval"
)

// countingFS counts the bytes the calling process copies out of the workspace for read_file.
type countingFS struct {
	fsys
	served *atomic.Int64
}

func (c countingFS) Read(p string) ([]byte, error) {
	b, err := c.fsys.Read(p)
	c.served.Add(int64(len(b)))
	return b, err
}

// The class: what a program makes the calling process read is bounded per call, as its writes are. Each
// read_file is a copy the host makes (and sends down a pipe), outside the evaluator's memory bound: before
// the bound, a three-line loop over an 8 MiB file made the host copy 800 MiB, and nothing stopped it at
// gigabytes. Now every way past the bound (one file read again and again, many files, one file larger
// than the bound) fails the call with a text that says how to get under it, the host having copied at
// most the bound.
func TestEvalReadBytesAreBoundedTogether(t *testing.T) {
	filesystems(t, func(t *testing.T, fs fsys) {
		const mib = 1 << 20
		for name, size := range map[string]int{"big.txt": 8 * mib, "mid.txt": 3 * mib, "huge.txt": 20 * mib} {
			if err := fs.Write(name, []byte(strings.Repeat("x", size))); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 10 {
			if err := fs.Write("small/f"+strconv.Itoa(i)+".txt", []byte(strings.Repeat("y", mib))); err != nil {
				t.Fatal(err)
			}
		}
		together := "read_file: the files one call reads may hold at most 16777216 bytes together (repeated reads count again)"
		for _, c := range []struct {
			name, program, want string
			cfg                 *eval.Config
		}{
			{"one file again and again, at the default bound", "for i in range(100):\n  s = read_file('big.txt')",
				"read_file: the files one call reads may hold at most " + strconv.FormatInt(eval.DefaultConfig.MaxReadBytes, 10) +
					" bytes together (repeated reads count again), and 'big.txt' (8388608 bytes) would pass it after ", nil},
			{"one file again and again", "for i in range(100):\n  s = read_file('mid.txt')",
				together + ", and 'mid.txt' (3145728 bytes) would pass it after 15728640 bytes read; read each file once and keep its text in a variable, or read the rest in another call",
				&eval.Config{MaxReadBytes: 16 * mib}},
			{"many files", "s = read_file('big.txt')\nfor i in range(10):\n  s = read_file('small/f%d.txt' % i)",
				together + ", and 'small/f8.txt' (1048576 bytes) would pass it after 16777216 bytes read", &eval.Config{MaxReadBytes: 16 * mib}},
			{"one file over the bound", "s = read_file('huge.txt')",
				"read_file: 'huge.txt' holds 20971520 bytes, more than the 16777216 bytes one call may read, so eval cannot read it; " +
					"read it in parts with a tool that reads a window of lines (the files suite's read_file, with offset and limit)",
				&eval.Config{MaxReadBytes: 16 * mib}},
		} {
			t.Run(c.name, func(t *testing.T) {
				var served atomic.Int64
				limit := eval.DefaultConfig.MaxReadBytes
				if c.cfg != nil {
					limit = c.cfg.MaxReadBytes
				}
				out, _ := callConfig(t, countingFS{fsys: fs, served: &served}, c.cfg, "write_file('new.txt', 'x')\n"+c.program)
				if out.Success || !strings.Contains(out.Output, c.want) {
					t.Fatalf("outcome %q", short(out.Output))
				}
				if n := served.Load(); n > limit {
					t.Errorf("the host copied %d bytes for the program; the bound is %d", n, limit)
				}
				if _, err := fs.Stat("new.txt"); err == nil {
					t.Error("new.txt survived the failed call")
				}
			})
		}
		// Up to the bound exactly, the reads succeed.
		var served atomic.Int64
		out, _ := callConfig(t, countingFS{fsys: fs, served: &served}, &eval.Config{MaxReadBytes: 16 * mib},
			"n = len(read_file('big.txt'))\nfor i in range(8):\n  n += len(read_file('small/f%d.txt' % i))\nresult = n")
		if !out.Success || !strings.HasSuffix(out.Output, "result = 16777216") || served.Load() != 16*mib {
			t.Fatalf("outcome %q, %d bytes served", short(out.Output), served.Load())
		}
	})
}
