package digest_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/digest"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

func filesystems(t *testing.T, f func(t *testing.T, fs vfs.WriteFS)) {
	t.Run("memory", func(t *testing.T) { f(t, vfs.NewMemory()) })
	t.Run("host", func(t *testing.T) {
		h, err := vfs.NewHost(t.TempDir(), vfs.BackupDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		f(t, h)
	})
}

func seed(t *testing.T, fs vfs.WriteFS, tree map[string]string) {
	t.Helper()
	for p, c := range tree {
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			if err := fs.MkdirAll(p[:i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := fs.Write(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDigestSummarisesAndExpands(t *testing.T) {
	filesystems(t, func(t *testing.T, fs vfs.WriteFS) {
		seed(t, fs, map[string]string{
			"README.md":            "# hello\n",
			"go.mod":               "module x\n",
			"cmd/app/main.go":      "package main\n\nfunc main() {}\n",
			"internal/a/a.go":      "package a\n",
			"internal/a/a_test.go": "package a\n",
			"internal/b/README":    "b",
			"docs/guide.md":        strings.Repeat("x", 2048),
		})
		sess := session.New()
		d := &wink.Dispatcher{Registry: wink.MustRegistry(digest.WinkTools()), Filesystem: fs, Session: sess}
		call := func(args string) wink.Outcome {
			out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "workspace_digest", Arguments: []byte(args)})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		out := call(`{}`)
		want := "Workspace digest: 7 files in 6 directories.\n\n" +
			"7 files in 6 directories, 2.1 KiB.\n" +
			"Kinds: .go 3, .md 2, (none) 1, .mod 1.\n" +
			"Notable: README.md, go.mod, internal/b/README.\n\n" +
			"/\n" +
			"  docs/ (1 files, 2.0 KiB)\n" +
			"  cmd/ (1 files, 29 B)\n" +
			"  internal/ (3 files, 21 B)\n" +
			"  go.mod (9 B)\n" +
			"  README.md (8 B)"
		if !out.Success || out.Output != want {
			t.Fatalf("output:\n%s\nwant:\n%s", out.Output, want)
		}
		out = call(`{"path":"internal"}`)
		if !out.Success || !strings.HasSuffix(out.Output, "\n\ninternal\n  a/ (2 files, 20 B)\n  b/ (1 files, 1 B)") {
			t.Errorf("expand:\n%s", out.Output)
		}
		cur, ok := digest.Current(sess)
		if !ok || len(cur.Expanded) != 2 || cur.Expanded[1].Path != "internal" {
			t.Errorf("session digest %+v", cur)
		}
		vars := digest.Vars(sess, prompt.Vars{"x": "y"})
		if vars["x"] != "y" || !strings.Contains(vars["workspace_digest"], "internal\n  a/ (2 files, 20 B)") {
			t.Errorf("vars %v", vars)
		}
		if out := call(`{"path":"nope"}`); out.Success || out.Output != "Directory 'nope' does not exist in the workspace; expand one of the directories listed in the digest." {
			t.Errorf("missing dir: %q", out.Output)
		}
		if out := call(`{"path":"../x"}`); out.Success || !strings.Contains(out.Output, "path: must be empty or / for the workspace root") {
			t.Errorf("bad path: %q", out.Output)
		}
	})
}

func TestDigestIsCapped(t *testing.T) {
	fs := vfs.NewMemory()
	tree := map[string]string{}
	for i := range 70 {
		tree["many/f"+strconv.Itoa(i)+".x"+strconv.Itoa(i%20)] = "z"
	}
	seed(t, fs, tree)
	d := &wink.Dispatcher{Registry: wink.MustRegistry(digest.WinkTools()), Filesystem: fs, Session: session.New()}
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "workspace_digest", Arguments: []byte(`{"path":"many"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Output, "  … and 10 more") || strings.Count(out.Output, "Kinds:") != 1 ||
		strings.Count(strings.SplitN(strings.SplitN(out.Output, "Kinds:", 2)[1], "\n", 2)[0], ",") != digest.MaxKinds-1 {
		t.Errorf("output:\n%s", out.Output)
	}
	for i := range digest.MaxExpanded + 5 {
		p := "d" + strconv.Itoa(i)
		if err := fs.MkdirAll(p); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "workspace_digest", Arguments: []byte(`{"path":"` + p + `"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := digest.Current(d.Session)
	if len(cur.Expanded) != digest.MaxExpanded || cur.Expanded[0].Path != "/" || cur.Expanded[len(cur.Expanded)-1].Path != "d24" {
		t.Errorf("%d expanded, first %q", len(cur.Expanded), cur.Expanded[0].Path)
	}
	// The codec keeps it (stores can).
	b := digest.WinkDigestCodec.Encode(nil, &cur)
	back, err := digest.WinkDigestCodec.Decode(b)
	if err != nil || len(back.Expanded) != len(cur.Expanded) {
		t.Errorf("codec round trip: %v", err)
	}
}

func TestSectionShowsTheDigest(t *testing.T) {
	sec, err := digest.Section()
	if err != nil {
		t.Fatal(err)
	}
	r, err := prompt.Must("p", sec).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "No digest yet: call workspace_digest to make one.") || len(r.Tools) != 1 {
		t.Errorf("text %q", r.Text)
	}
}
