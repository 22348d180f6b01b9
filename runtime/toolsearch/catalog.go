package toolsearch

import (
	"slices"
	"strings"
)

// Entry is one tool of a Catalog: what a search shows the model about it.
type Entry struct {
	// Name is the tool's name.
	Name string
	// Line is the first sentence of the tool's description.
	Line string
	// Params are the tool's top-level parameter names, in declaration order, separated by ", ".
	Params string
}

// Catalog is the search index of one package's deferred tools (//wink:tool defer), built by winkgen at
// generation time and emitted as the package's WinkCatalog variable: nothing is tokenized or indexed at
// run time. A Catalog is read-only; share it freely.
type Catalog struct {
	// Entries are the catalogued tools, in source order.
	Entries []Entry
	// Terms are the index's terms (Terms of each entry's name, description and parameter names), sorted.
	Terms []string
	// Postings holds, for Terms[i], the entries it occurs in, ascending: entry index<<8 | occurrences
	// (at most 255).
	Postings [][]uint32
	// Lengths holds each entry's number of terms, occurrences counted.
	Lengths []uint16
}

// Build returns the catalog of entries whose documents are docs (docs[i] is the text indexed for
// entries[i]: its name, full description and parameter names). winkgen calls it when it generates a
// package; it is exported for generators and tests, not for use at run time.
func Build(entries []Entry, docs []string) *Catalog {
	c := &Catalog{Entries: entries, Lengths: make([]uint16, len(entries))}
	tf := map[string][]uint32{}
	for i, doc := range docs {
		counts := map[string]int{}
		ts := Terms(doc)
		for _, t := range ts {
			counts[t]++
		}
		c.Lengths[i] = uint16(min(len(ts), 1<<16-1))
		for t, n := range counts {
			tf[t] = append(tf[t], uint32(i)<<8|uint32(min(n, 255)))
		}
	}
	for t := range tf {
		c.Terms = append(c.Terms, t)
	}
	slices.Sort(c.Terms)
	for _, t := range c.Terms {
		p := tf[t]
		slices.Sort(p)
		c.Postings = append(c.Postings, p)
	}
	return c
}

// Doc returns the text winkgen indexes for a tool: its name (twice, so that a word of the name weighs
// more than one of the description), its description and its parameter names.
func Doc(name, description string, params []string) string {
	return name + " " + name + " " + description + " " + strings.Join(params, " ")
}

// FirstLine returns the first sentence of a description (up to and including the first ". ", or all of
// it), for Entry.Line.
func FirstLine(description string) string {
	if i := strings.Index(description, ". "); i >= 0 {
		return description[:i+1]
	}
	return description
}

// Terms splits text into index terms: runs of ASCII letters and digits (so snake_case, kebab-case and
// CamelCase names split into words), lowercased, single letters (the s of "order's") and common English words dropped, a plural "s" removed ("files" and
// "file" are one term). Queries and tools go through the same function.
func Terms(text string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(text); i++ {
		alnum := false
		if i < len(text) {
			c := text[i]
			alnum = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		}
		camel := alnum && start >= 0 && text[i] >= 'A' && text[i] <= 'Z' && text[i-1] >= 'a' && text[i-1] <= 'z'
		if alnum && !camel {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if t := term(text[start:i]); t != "" {
				out = append(out, t)
			}
			start = -1
		}
		if camel {
			start = i
		}
	}
	return out
}

func term(w string) string {
	w = strings.ToLower(w)
	if len(w) < 2 || stop[w] {
		return ""
	}
	if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' && w[len(w)-2] != 'u' && w[len(w)-2] != 'i' {
		w = w[:len(w)-1]
	}
	return w
}

// stop are the words too common to tell tools apart.
var stop = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "into": true, "is": true, "it": true, "its": true, "of": true,
	"on": true, "or": true, "that": true, "the": true, "this": true, "to": true, "with": true,
}
