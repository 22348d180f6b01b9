package gen

import (
	"fmt"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// Diagnostic is one generation-time problem at a source position. All diagnostics of a run are collected,
// sorted by position and deduplicated, then printed as `relpath:line:col: message` (the form of go vet and
// go/analysis), so a developer fixes every annotation in one pass.
type Diagnostic struct {
	Pos     token.Position // Filename is absolute; Line and Column are 1-based
	Message string
}

// String formats d with an absolute file name.
func (d Diagnostic) String() string { return d.Format("") }

// Format formats d as `file:line:col: message`, with the file name made relative to base when base is not
// empty and the file lies under it.
func (d Diagnostic) Format(base string) string {
	file := d.Pos.Filename
	if base != "" && file != "" {
		if rel, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
	}
	if file == "" {
		return d.Message
	}
	col := d.Pos.Column
	if col < 1 {
		col = 1
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, d.Pos.Line, col, d.Message)
}

// diags collects diagnostics.
type diags struct{ list []Diagnostic }

func (ds *diags) add(pos token.Position, format string, args ...any) {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	ds.list = append(ds.list, Diagnostic{Pos: pos, Message: msg})
}

// sortDiagnostics orders by file, line, column, message and removes exact duplicates.
func sortDiagnostics(list []Diagnostic) []Diagnostic {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Pos.Column < b.Pos.Column
	})
	// Several messages at one position keep the order they were found in (input order for examples).
	seen := map[Diagnostic]bool{}
	out := list[:0]
	for _, d := range list {
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
	}
	return out
}
