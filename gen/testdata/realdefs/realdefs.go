// Package realdefs declares tools as function-calling benchmarks write them, translated to Go: integer and
// string and number enums with awkward values, defaults of every kind, free-form values, arrays of arrays, optional
// parameters and descriptions with special characters.
package realdefs

import "github.com/winkgen/wink/runtime/wink"

// Unit is a unit with awkward values.
type Unit string

// Units.
const (
	MPS   Unit = "m/s"
	KMH   Unit = "km/h"
	Comma Unit = "Los Angeles, CA"
	Pipe  Unit = "a|b"
	Quote Unit = `say "hi"`
)

// Filter is nested.
type Filter struct {
	// The field to filter on.
	Field string `json:"field"`
	// Values accepted.
	Values []string `json:"values,omitempty" wink:"default=[]"`
}

// SearchParams mirrors a benchmark definition.
type SearchParams struct {
	// The search query, e.g. "cats & dogs".
	// A second line, with `code` and a tab	here.
	Query string `json:"query"`
	// Number of results.
	Limit int `json:"limit,omitempty" wink:"default=10,min=1,max=100"`
	// Minimum score.
	MinScore float64 `json:"min_score,omitempty" wink:"default=0.5"`
	// Whether to include archived items.
	Archived bool `json:"archived,omitempty" wink:"default=false"`
	// The unit.
	Unit Unit `json:"unit,omitempty" wink:"default=m/s"`
	// Port, one of a few.
	Port int `json:"port,omitempty" wink:"enum=80|443|8080,default=443"`
	// Matrix of numbers.
	Matrix [][]int `json:"matrix,omitempty"`
	// Extra parameters of any kind.
	Params map[string]wink.RawJSON `json:"params,omitempty"`
	// Any value.
	Value wink.RawJSON `json:"value,omitempty"`
	// Filters.
	Filters []Filter `json:"filters,omitempty"`
	// Coordinates (a tuple).
	Coordinates [2]float64 `json:"coordinates,omitempty"`
	// Labels with a default object.
	Labels map[string]string `json:"labels,omitempty" wink:"default={\"env\":\"prod\"}"`
	// Optional nested with a default.
	Filter *Filter `json:"filter,omitempty"`
	// Temperature, one of a few numbers.
	Temperature float64 `json:"temperature,omitempty" wink:"enum=0|0.5|1.5,default=0.5"`
	// Ratio as float32.
	Ratio float32 `json:"ratio,omitempty" wink:"enum=0.1|0.25"`
	// A range keyword.
	Range string `json:"range,omitempty"`
}

// Hits are results.
type Hits struct {
	// N is the count.
	N int `json:"n"`
}

// Search searches the index for a query.
//
//wink:tool
//wink:example desc="Defaults" input={"query":"cats","temperature":1.5,"ratio":0.1} output={"n":1}
func Search(tc *wink.ToolContext, p SearchParams) (wink.ToolResult[Hits], error) {
	return wink.OK(Hits{N: 1}, "found"), nil
}
