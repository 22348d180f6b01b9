package toolsearch

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// BM25's parameters (Robertson and Zaragoza's usual values).
const (
	k1 = 1.2
	b  = 0.75
)

// The search tool's bounds on the number of tools one search returns.
const (
	DefaultLimit = 5
	MaxLimit     = 20
)

// Hit is one tool a search found.
type Hit struct {
	Entry
	// Score is the tool's BM25 score for the query (higher is better).
	Score float64
}

// Search returns up to limit entries of the catalogs that allow keeps (nil keeps all), ranked by their
// BM25 score for query, best first (ties by name); entries that share no term with the query are not
// returned. The catalogs are searched as one collection: document frequencies and the average length are
// summed over them at query time (a few binary searches per query term), never precomputed across
// packages. An entry whose name appears in several catalogs is returned once, with its best score.
func Search(cats []*Catalog, query string, limit int, keep func(name string) bool) []Hit {
	if limit <= 0 {
		return nil
	}
	qs := Terms(query)
	slices.Sort(qs)
	qs = slices.Compact(qs)
	n, total := 0, 0
	for _, c := range cats {
		n += len(c.Entries)
		for _, l := range c.Lengths {
			total += int(l)
		}
	}
	if n == 0 || len(qs) == 0 {
		return nil
	}
	avg := float64(total) / float64(n)
	type key struct{ cat, entry int }
	scores := map[key]float64{}
	for _, q := range qs {
		df := 0
		at := make([]int, len(cats))
		for ci, c := range cats {
			i, ok := slices.BinarySearch(c.Terms, q)
			at[ci] = -1
			if ok {
				at[ci] = i
				df += len(c.Postings[i])
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		for ci, c := range cats {
			if at[ci] < 0 {
				continue
			}
			for _, p := range c.Postings[at[ci]] {
				e, tf := int(p>>8), float64(p&0xff)
				dl := float64(c.Lengths[e])
				scores[key{ci, e}] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avg))
			}
		}
	}
	best := map[string]Hit{}
	for k, s := range scores {
		e := cats[k.cat].Entries[k.entry]
		if keep != nil && !keep(e.Name) {
			continue
		}
		if h, ok := best[e.Name]; !ok || s > h.Score {
			best[e.Name] = Hit{Entry: e, Score: s}
		}
	}
	hits := make([]Hit, 0, len(best))
	for _, h := range best {
		hits = append(hits, h)
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Name < hits[j].Name
	})
	return hits[:min(limit, len(hits))]
}

// Name is the name of the client-side search tool the model calls.
const Name = "tool_search"

// Description is the search tool's description.
const Description = "Searches the tools that are not loaded yet by what they do. Call it when no loaded tool fits the task; the tools it finds can be called from the next turn on."

// ParamsSchema is the search tool's parameters (plain JSON Schema, valid as an OpenAI strict schema as
// well: every property is required, limit may be null).
const ParamsSchema = `{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":200,"description":"What the tool should do, in a few words (for example: send an email)."},"limit":{"type":["integer","null"],"minimum":1,"maximum":20,"description":"How many tools to return at most (default 5)."}},"required":["query","limit"],"additionalProperties":false}`

// Query is the decoded arguments of a search call.
type Query struct {
	// Text is the "query" argument.
	Text string
	// Limit is the "limit" argument, DefaultLimit when absent or null.
	Limit int
}

var queryKeys = []string{"query", "limit"}

// ParseQuery decodes a search call's arguments strictly, as a generated decoder would: a JSON object
// with "query" (1-200 characters) and an optional "limit" (1-20, or null). The error's text is what the
// model reads: every problem at its path, and how to fix the call.
func ParseQuery(args []byte) (Query, error) {
	q := Query{Limit: DefaultLimit}
	var d strictjson.Decoder
	d.Reset(args, strictjson.Limits{MaxBytes: 4096, MaxDepth: 8})
	if d.ObjectStart() {
		var seen uint64
		for d.NextKey() {
			switch string(d.Key()) {
			case "query":
				if d.Repeated(&seen, 1) {
					continue
				}
				if s, ok := d.String(); ok && d.CheckLength(s, 1, 200) {
					q.Text = s
				}
			case "limit":
				if d.Repeated(&seen, 2) {
					continue
				}
				if d.Null() {
					continue
				}
				if n, ok := d.Int(1, MaxLimit); ok {
					q.Limit = int(n)
				}
			default:
				d.Unknown(queryKeys)
			}
		}
		if seen&1 == 0 {
			d.Missing("query")
		}
		d.ObjectEnd()
	}
	if errs := d.Finish(); errs != nil {
		return Query{}, &wink.ArgumentsError{Tool: Name, Errors: errs}
	}
	return q, nil
}

// Text returns what a search's result says in words, for providers that take no references to tools
// (and as the text beside them): one line per hit, "name(params): line", and that the tools are loaded.
func Text(query string, hits []Hit) string {
	if len(hits) == 0 {
		return "No tool matches " + strconv.Quote(query) + ". Search again with other words (what the tool does, not its name), or answer with the tools you have."
	}
	var sb strings.Builder
	sb.WriteString("Found ")
	sb.WriteString(strconv.Itoa(len(hits)))
	if len(hits) == 1 {
		sb.WriteString(" tool; it is loaded and can be called from now on:")
	} else {
		sb.WriteString(" tools; they are loaded and can be called from now on:")
	}
	for _, h := range hits {
		sb.WriteString("\n- ")
		sb.WriteString(h.Name)
		sb.WriteByte('(')
		sb.WriteString(h.Params)
		sb.WriteString("): ")
		sb.WriteString(h.Line)
	}
	return sb.String()
}
