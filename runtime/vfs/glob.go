package vfs

import (
	"path"
	"strings"
)

// globPattern is a compiled Glob pattern.
type globPattern struct {
	segs []string
	// base is the longest leading run of literal segments, joined ("." when none): only base itself and the
	// entries below it can match, so implementations walk from there.
	base string
}

func compileGlob(pattern string) (globPattern, error) {
	c, err := Clean(pattern)
	if err != nil {
		return globPattern{}, err
	}
	if c == "." {
		return globPattern{segs: nil, base: "."}, nil
	}
	segs := strings.Split(c, "/")
	base := "."
	literal := true
	for _, s := range segs {
		if s != "**" {
			if _, err := path.Match(s, ""); err != nil {
				return globPattern{}, &reason{ErrInvalid, "bad glob pattern segment " + quoteSeg(s) +
					" (use *, ?, [a-z] within a segment and ** for any depth)"}
			}
		}
		if literal && !hasMeta(s) {
			base = joinPath(base, s)
		} else {
			literal = false
		}
	}
	return globPattern{segs: segs, base: base}, nil
}

func quoteSeg(s string) string { return "\"" + s + "\"" }

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

// match reports whether the cleaned relative path p matches the pattern.
func (g globPattern) match(p string) bool {
	if p == "." {
		return false
	}
	return matchSegs(g.segs, strings.Split(p, "/"))
}

// matchSegs matches path segments against pattern segments; "**" matches zero or more segments. It runs in
// O(len(pat) * len(segs)) with a rolling table.
func matchSegs(pat, segs []string) bool {
	// cur[j] reports whether pat[:i] matches segs[:j].
	cur := make([]bool, len(segs)+1)
	next := make([]bool, len(segs)+1)
	cur[0] = true
	for _, p := range pat {
		for j := range next {
			next[j] = false
		}
		if p == "**" {
			seen := false
			for j := 0; j <= len(segs); j++ {
				seen = seen || cur[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(segs); j++ {
				if cur[j-1] {
					ok, _ := path.Match(p, segs[j-1])
					next[j] = ok
				}
			}
		}
		cur, next = next, cur
	}
	return cur[len(segs)]
}
