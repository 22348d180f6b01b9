package goflags

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  -race\t-mod=mod \n", []string{"-race", "-mod=mod"}},
		{`'-gcflags=all=-N -l' -race "-ldflags=-X 'a.b=c d'"`, []string{"-gcflags=all=-N -l", "-race", "-ldflags=-X 'a.b=c d'"}},
		{`-tags=a'b`, []string{`-tags=a'b`}}, // a quote inside a flag is a character
	} {
		got, err := Split(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Split(`-race '-gcflags=-N`); err == nil {
		t.Error("Split of an open quote returned no error")
	}
}

func TestJoinThenSplit(t *testing.T) {
	flags := []string{"-race", "-gcflags=all=-N -l", `-ldflags=-X 'a.b=c d'`, `-tags=x"y`}
	s, err := Join(flags)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Split(s)
	if err != nil || !slices.Equal(back, flags) {
		t.Fatalf("Split(Join(%q)) = %q, %v (joined: %s)", flags, back, err, s)
	}
	if _, err := Join([]string{`-ldflags=-X "a" 'b c'`}); err == nil {
		t.Error("Join of a flag with both quotes and a space returned no error")
	}
}

// TestTheGoCommandReadsJoinedFlags checks Join's output against the go command itself: a GOFLAGS it
// writes is read back by go env as the same flags.
func TestTheGoCommandReadsJoinedFlags(t *testing.T) {
	goflags, err := Join([]string{"-gcflags=all=-N -l", "-tags=a,b"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", "{{context.BuildTags}}", "runtime")
	cmd.Env = append(cmd.Environ(), "GOFLAGS="+goflags)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list with GOFLAGS=%s: %v\n%s", goflags, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "[a b]" {
		t.Errorf("go list with GOFLAGS=%s saw build tags %s, want [a b]", goflags, got)
	}
}
