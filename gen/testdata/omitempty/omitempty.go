// Package omitempty: result fields tagged omitempty or omitzero are left out as encoding/json leaves them
// out, leading ones included, at every depth.
package omitempty

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Inner is a nested struct.
type Inner struct {
	// Name is a name.
	Name string `json:"name" wink:"minLength=1"`
}

// Report is what report returns.
type Report struct {
	// Note comes first and may be empty.
	Note string `json:"note,omitempty"`
	// Count may be zero.
	Count int `json:"count,omitempty"`
	// Ok may be false.
	Ok bool `json:"ok,omitempty"`
	// Tags may be empty.
	Tags []string `json:"tags,omitempty"`
	// Kept is always written.
	Kept string `json:"kept"`
	// Labels may be empty.
	Labels map[string]string `json:"labels,omitempty"`
	// Ptr may be nil.
	Ptr *int `json:"ptr,omitempty"`
	// Nilable is written as null when nil (no omitempty).
	Nilable *int `json:"nilable"`
	// Inner is left out when zero.
	Inner Inner `json:"inner,omitzero"`
	// At is left out when zero.
	At time.Time `json:"at,omitzero"`
	// Raw may be empty.
	Raw wink.RawJSON `json:"raw,omitempty"`
	// List is left out only when nil (omitzero).
	List []int `json:"list,omitzero"`
	// Score has a default, so it is always written.
	Score float64 `json:"score,omitempty" wink:"default=1.5"`
	// Anon is an anonymous struct whose members may be left out.
	Anon struct {
		// A may be empty.
		A string `json:"a,omitempty"`
		// B may be zero.
		B int `json:"b,omitempty"`
	} `json:"anon"`
}

// ReportParams are the arguments of report.
type ReportParams struct {
	// Fill says which fields to set.
	Fill []string `json:"fill,omitempty"`
}

// MakeReport returns a report with the fields Fill names set.
//
//wink:tool name=report
func MakeReport(tc *wink.ToolContext, p ReportParams) (wink.ToolResult[Report], error) {
	return wink.OK(Build(p.Fill), "Reported."), nil
}

// Build returns a report with the named fields set.
func Build(fill []string) Report {
	r := Report{Score: 2}
	one := 1
	for _, f := range fill {
		switch f {
		case "note":
			r.Note = "n"
		case "count":
			r.Count = 3
		case "ok":
			r.Ok = true
		case "tags":
			r.Tags = []string{"t"}
		case "empty_tags":
			r.Tags = []string{}
		case "labels":
			r.Labels = map[string]string{"k": "v"}
		case "empty_labels":
			r.Labels = map[string]string{}
		case "ptr":
			r.Ptr = &one
		case "nilable":
			r.Nilable = &one
		case "inner":
			r.Inner = Inner{Name: "x"}
		case "at":
			r.At = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
		case "raw":
			r.Raw = wink.RawJSON(`{"x":1}`)
		case "list":
			r.List = []int{1}
		case "empty_list":
			r.List = []int{}
		case "anon":
			r.Anon.A, r.Anon.B = "a", 2
		}
	}
	return r
}
