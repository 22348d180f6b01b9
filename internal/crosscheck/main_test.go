package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFindsWhatDoesNotBuildOnAPlatform: testdata/platform calls syscall.Kill, which Windows lacks.
// Type-checked for windows it fails at that line (the standard library's declarations for windows, read
// without their bodies, are what the module's code is checked against), and for darwin it passes.
func TestCheckFindsWhatDoesNotBuildOnAPlatform(t *testing.T) {
	dir := filepath.Join("testdata", "platform")
	errs, n, err := check(dir, "windows", []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("%d packages checked for windows; want the package and the standard library it imports", n)
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "kill.go:12:") || !strings.Contains(errs[0], "Kill") ||
		!strings.Contains(errs[1], "kill.go:12:") || !strings.Contains(errs[1], "SIGUSR1") {
		t.Errorf("windows: errors %q; want syscall.Kill and syscall.SIGUSR1 undefined at kill.go:12", errs)
	}
	if errs, _, err := check(dir, "darwin", []string{"./..."}); err != nil || len(errs) != 0 {
		t.Errorf("darwin: errors %q, %v; want none", errs, err)
	}
}

// TestWithoutSanitizersKeepsQuotedFlagsWhole: a GOFLAGS flag quoted to hold spaces reaches the cross
// type-check whole, and the sanitizers are dropped wherever they stand.
func TestWithoutSanitizersKeepsQuotedFlagsWhole(t *testing.T) {
	got, err := withoutSanitizers(`-race '-gcflags=all=-N -l' -msan=true "-tags=a b" -asan`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `'-gcflags=all=-N -l' '-tags=a b'`; got != want {
		t.Errorf("withoutSanitizers = %s, want %s", got, want)
	}
	if _, err := withoutSanitizers(`-race '-gcflags=-N`); err == nil {
		t.Error("an open quote in GOFLAGS was not reported")
	}
}
