// Package awkward declares tools over awkward but legal Go types, for the dialect checkers: deep nesting,
// many properties, integer and number enums, nullable everything, maps of maps, slices of maps, recursion
// through slices, maps and pointers, free-form JSON in every position, times and durations, unsigned
// integers, byte slices, arrays, embedded structs and json tag options.
package awkward

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Level is an integer enum.
type Level int

// Levels.
const (
	Low  Level = 1
	Mid  Level = 2
	High Level = 3
)

// L1, L3, L4, L6 and L7 nest through a pointer, a slice, a map and an array to the deepest schema OpenAI's
// strict mode takes: the leaf is 10 levels deep as OpenAI's validator counts (schema.OpenAINesting).
type L1 struct {
	// Next level.
	Next *L3 `json:"next,omitempty"`
	// Name at this level.
	Name string `json:"name"`
	// Count at this level.
	Count int `json:"count"`
}

// L3 is a level.
type L3 struct {
	Next []L4 `json:"next"`
}

// L4 is a level.
type L4 struct {
	Next map[string]L6 `json:"next"`
}

// L6 is a level.
type L6 struct {
	Next [2]L7 `json:"next"`
}

// L7 is the deepest level.
type L7 struct {
	Leaf  wink.RawJSON `json:"leaf"`
	Level Level        `json:"level" wink:"enum=1|2|3"`
}

// Base is embedded.
type Base struct {
	// ID of the record.
	ID uint64 `json:"id"`
	// Tags of the record.
	Tags []string `json:"tags,omitempty" wink:"maxItems=8,uniqueItems"`
}

// Node recurses through a slice, a map and a pointer.
type Node struct {
	Value    wink.RawJSON     `json:"value,omitempty"`
	Kids     []Node           `json:"kids,omitempty"`
	ByName   map[string]*Node `json:"by_name,omitempty"`
	Sibling  *Node            `json:"sibling,omitempty"`
	Priority *Level           `json:"priority,omitempty" wink:"enum=1|2|3"`
}

// WideParams has many properties of awkward types.
type WideParams struct {
	Base
	// A description with "quotes", `backticks`, a backslash \ and <html> & such.
	Quoted string `json:"quoted"`
	// Small unsigned.
	U8 uint8 `json:"u8"`
	// Unsigned 16.
	U16 uint16 `json:"u16,omitempty"`
	// Unsigned 32.
	U32 *uint32 `json:"u32,omitempty"`
	// Signed 8.
	I8 int8 `json:"i8" wink:"min=-5,max=5"`
	// Ratio in [0, 1].
	Ratio float64 `json:"ratio" wink:"min=0,max=1"`
	// Float32 value.
	F32 float32 `json:"f32,omitempty"`
	// An integer enum.
	Level Level `json:"level" wink:"enum=1|2|3,default=2"`
	// A fixed array.
	Pair [2]int `json:"pair"`
	// An array of arrays.
	Grid [][]float64 `json:"grid,omitempty"`
	// When.
	When time.Time `json:"when"`
	// Maybe when.
	MaybeWhen *time.Time `json:"maybe_when,omitempty"`
	// How long.
	Wait time.Duration `json:"wait,omitempty" wink:"min=1s,max=24h"`
	// Map of maps.
	Matrix map[string]map[string]int `json:"matrix,omitempty"`
	// Slice of maps.
	Rows []map[string]string `json:"rows,omitempty"`
	// Free-form options.
	Options wink.RawJSON `json:"options,omitempty"`
	// Free-form list.
	Extras []wink.RawJSON `json:"extras,omitempty"`
	// Free-form map values.
	Meta map[string]wink.RawJSON `json:"meta,omitempty"`
	// Deep nesting.
	Deep L1 `json:"deep"`
	// A recursive tree.
	Tree *Node `json:"tree,omitempty"`
	// Nullable pointers to everything.
	PS *string  `json:"ps,omitempty"`
	PB *bool    `json:"pb,omitempty"`
	PF *float64 `json:"pf,omitempty"`
	PL *[]int   `json:"pl,omitempty"`
	// Zero means absent.
	Zero int `json:"zero,omitzero"`
	// Default list.
	Names []string `json:"names,omitempty" wink:"default=[\"a\",\"b\"]"`
	// Go keyword as a name.
	Type string `json:"type,omitempty" wink:"enum=file|dir"`
	// Another keyword.
	Func string `json:"func,omitempty"`
}

// Result is what wide returns.
type Result struct {
	OK bool `json:"ok"`
}

// Wide takes many awkward properties.
//
//wink:tool
func Wide(tc *wink.ToolContext, p WideParams) (wink.ToolResult[Result], error) {
	return wink.OK(Result{OK: true}, "done"), nil
}

// FreeParams is only free-form JSON.
type FreeParams struct {
	// Anything.
	Any wink.RawJSON `json:"any"`
}

// Free takes one free-form value.
//
//wink:tool
func Free(tc *wink.ToolContext, p FreeParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}

// MapParams is a map at the root of a field only.
type MapParams struct {
	// Counters.
	Counts map[string]int `json:"counts"`
}

// Counts takes only a map.
//
//wink:tool
func Counts(tc *wink.ToolContext, p MapParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}

// Tree takes a recursive root.
//
//wink:tool name=tree_root
func Tree(tc *wink.ToolContext, p Node) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}

// EmptyParams has no fields.
type EmptyParams struct{}

// Nothing takes no arguments.
//
//wink:tool name=_nothing
func Nothing(tc *wink.ToolContext, p EmptyParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}
