// Package shapestest holds tools of every result shape a winkgen user can write (structs, pointers,
// optional fields, slices, nested slices, maps, scalars, enums, named slices, times, durations, raw JSON,
// recursive and embedded structs, a struct shared by several fields so that its schema goes under $defs,
// no value, values kept out of the context, content blocks, failures and panics) and params using every
// schema feature (enums, defaults scalar and composite, duration bounds, patterns, formats, examples).
//
// cmd/shapesserver serves them over stdio or streamable HTTP; testdata/mcpclients drives that server with
// the official TypeScript SDK client and the Inspector CLI on every protocol version (make mcp-clients),
// and the package's Go tests drive it with the Go SDK client.
package shapestest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Color is a named string enum.
type Color string

// The colors.
const (
	Red   Color = "red"   //wink:enum title="Red"
	Green Color = "green" //wink:enum title="Green"
	Blue  Color = "blue"  //wink:enum title="Blue"
)

// Level is a named integer enum.
type Level int

// The levels.
const (
	Low  Level = 1
	High Level = 2
)

// Tags is a named slice type.
type Tags []string

// Point is a struct shared by several fields and results (its schema goes under $defs).
type Point struct {
	// X coordinate.
	X int `json:"x"`
	// Y coordinate.
	Y int `json:"y"`
}

// Base is embedded in Record.
type Base struct {
	// ID of the record.
	ID string `json:"id"`
	// Created is when the record was made.
	Created time.Time `json:"created"`
}

// Record is a struct with an embedded struct, optional fields and a shared struct used twice.
type Record struct {
	Base
	// Name of the record.
	Name string `json:"name"`
	// Note is optional.
	Note *string `json:"note,omitempty"`
	// Count is optional (omitempty).
	Count int `json:"count,omitempty"`
	// From is one point.
	From Point `json:"from"`
	// To is another point.
	To *Point `json:"to,omitempty"`
	// Color of the record.
	Color Color `json:"color"`
	// Tags of the record.
	Tags Tags `json:"tags"`
	// Extra is free-form JSON.
	Extra wink.RawJSON `json:"extra,omitempty"`
	// Wait is a duration.
	Wait time.Duration `json:"wait"`
	// Level of the record.
	Level Level `json:"level"`
}

// Tree is a recursive struct.
type Tree struct {
	// Name of the node.
	Name string `json:"name"`
	// Children of the node.
	Children []Tree `json:"children"`
	// Parent points up (always null in results).
	Parent *Tree `json:"parent,omitempty"`
}

// Options are composite params with every feature.
type Options struct {
	// Depth of the search.
	Depth int `json:"depth" wink:"min=1,max=5,default=2"`
	// Labels to attach.
	Labels []string `json:"labels" wink:"default=[\"a\",\"b\"],maxItems=4,uniqueItems"`
}

// Params use every schema feature.
type Params struct {
	// Name is a lower-case word.
	Name string `json:"name" wink:"pattern='^[a-z]{1,20}$',patternDesc='a lower-case word'"`
	// Color to use.
	Color Color `json:"color,omitempty" wink:"default=green"`
	// Level to use.
	Level Level `json:"level,omitempty" wink:"default=1"`
	// Mode is one of two strings.
	Mode string `json:"mode,omitempty" wink:"enum=fast|slow,default=fast"`
	// Wait is a bounded duration.
	Wait time.Duration `json:"wait,omitempty" wink:"min=1s,max=1h,default=90s"`
	// Email of the caller.
	Email string `json:"email,omitempty" wink:"format=email"`
	// When the call is for.
	When *time.Time `json:"when,omitempty"`
	// Ratio between 0 and 1.
	Ratio float64 `json:"ratio,omitempty" wink:"min=0,max=1,default=0.5"`
	// Options with composite defaults.
	Options Options `json:"options" wink:"default={\"depth\":3}"`
	// Points are optional.
	Points []Point `json:"points,omitempty"`
	// Weights by name.
	Weights map[string]int `json:"weights,omitempty"`
	// Extra is free-form JSON.
	Extra wink.RawJSON `json:"extra,omitempty"`
	// Fail makes the call fail.
	Fail bool `json:"fail,omitempty"`
	// Panic makes the handler panic.
	Panic bool `json:"panic,omitempty"`
	// Absent answers without a value.
	Absent bool `json:"absent,omitempty"`
}

// outcome answers for the result-shape tools: a failure, a panic, no value, or value.
func outcome[R any](p Params, value R, msg string) (wink.ToolResult[R], error) {
	switch {
	case p.Panic:
		panic("shapes: asked to panic")
	case p.Fail:
		return wink.Failure[R]("Asked to fail."), nil
	case p.Absent:
		return wink.Done[R]("No value."), nil
	}
	return wink.OK(value, msg), nil
}

func record(p Params) Record {
	note := "a note"
	var extra wink.RawJSON
	if p.Extra != nil {
		extra = p.Extra
	}
	return Record{
		Base:  Base{ID: "r1", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		Name:  p.Name,
		Note:  &note,
		From:  Point{X: 1, Y: 2},
		To:    &Point{X: 3, Y: 4},
		Color: p.Color,
		Tags:  Tags{"x", "y"},
		Extra: extra,
		Wait:  p.Wait,
		Level: p.Level,
	}
}

// StructResult returns a struct.
//
//wink:tool readonly
//wink:example desc="A record" input={"name":"abc"}
//wink:example desc="Every param" input={"name":"abc","color":"red","level":2,"mode":"slow","wait":"2m","email":"a@b.example","when":"2026-01-02T03:04:05Z","ratio":0.25,"options":{"depth":4,"labels":["z"]},"points":[{"x":1,"y":2}],"weights":{"a":1},"extra":{"k":[1,2]}}
func StructResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Record], error) {
	return outcome(p, record(p), "A record.")
}

// PointerResult returns a pointer to a struct, nil when the name is "none".
//
//wink:tool readonly
//wink:example desc="A record" input={"name":"abc"}
//wink:example desc="Null" input={"name":"none"}
func PointerResult(tc *wink.ToolContext, p Params) (wink.ToolResult[*Record], error) {
	if p.Name == "none" {
		return outcome[*Record](p, nil, "Nothing.")
	}
	r := record(p)
	return outcome(p, &r, "A record.")
}

// StringsResult returns a slice of strings.
//
//wink:tool readonly
//wink:example desc="Letters" input={"name":"abc"} output=["a","b","c"]
func StringsResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[]string], error) {
	return outcome(p, strings.Split(p.Name, ""), "Letters.")
}

// NilSliceResult returns a nil slice.
//
//wink:tool readonly
//wink:example desc="Nil" input={"name":"abc"}
func NilSliceResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[]string], error) {
	return outcome[[]string](p, nil, "Nothing.")
}

// StructsResult returns a slice of structs (the shared Point).
//
//wink:tool readonly
//wink:example desc="Points" input={"name":"abc"}
func StructsResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[]Point], error) {
	return outcome(p, []Point{{1, 2}, {3, 4}}, "Points.")
}

// MatrixResult returns a slice of slices of integers.
//
//wink:tool readonly
//wink:example desc="Matrix" input={"name":"abc"} output=[[1,2],[3]]
func MatrixResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[][]int], error) {
	return outcome(p, [][]int{{1, 2}, {3}}, "Matrix.")
}

// MapResult returns a map of integers.
//
//wink:tool readonly
//wink:example desc="Map" input={"name":"abc"}
func MapResult(tc *wink.ToolContext, p Params) (wink.ToolResult[map[string]int], error) {
	return outcome(p, map[string]int{"a": 1, "b": 2}, "Map.")
}

// StructMapResult returns a map of structs.
//
//wink:tool readonly
//wink:example desc="Map" input={"name":"abc"}
func StructMapResult(tc *wink.ToolContext, p Params) (wink.ToolResult[map[string]Point], error) {
	return outcome(p, map[string]Point{"origin": {}, "one": {1, 1}}, "Map of points.")
}

// StringResult returns a string.
//
//wink:tool readonly
//wink:example desc="Upper" input={"name":"abc"} output="ABC"
func StringResult(tc *wink.ToolContext, p Params) (wink.ToolResult[string], error) {
	return outcome(p, strings.ToUpper(p.Name), "Upper.")
}

// IntResult returns an integer.
//
//wink:tool readonly
//wink:example desc="Length" input={"name":"abc"} output=3
func IntResult(tc *wink.ToolContext, p Params) (wink.ToolResult[int], error) {
	return outcome(p, len(p.Name), "Length.")
}

// FloatResult returns a float.
//
//wink:tool readonly
//wink:example desc="Ratio" input={"name":"abc","ratio":0.25} output=0.25
func FloatResult(tc *wink.ToolContext, p Params) (wink.ToolResult[float64], error) {
	return outcome(p, p.Ratio, "Ratio.")
}

// BoolResult returns a bool.
//
//wink:tool readonly
//wink:example desc="False" input={"name":"abc"} output=false
func BoolResult(tc *wink.ToolContext, p Params) (wink.ToolResult[bool], error) {
	return outcome(p, p.Fail, "Bool.")
}

// EnumResult returns a named string enum.
//
//wink:tool readonly
//wink:example desc="Color" input={"name":"abc","color":"blue"} output="blue"
func EnumResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Color], error) {
	return outcome(p, p.Color, "Color.")
}

// LevelResult returns a named integer enum.
//
//wink:tool readonly
//wink:example desc="Level" input={"name":"abc","level":2} output=2
func LevelResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Level], error) {
	return outcome(p, p.Level, "Level.")
}

// TagsResult returns a named slice type.
//
//wink:tool readonly
//wink:example desc="Tags" input={"name":"abc"} output=["abc"]
func TagsResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Tags], error) {
	return outcome(p, Tags{p.Name}, "Tags.")
}

// TimeResult returns a time.
//
//wink:tool readonly
//wink:example desc="Time" input={"name":"abc"} output="2026-01-02T03:04:05Z"
func TimeResult(tc *wink.ToolContext, p Params) (wink.ToolResult[time.Time], error) {
	return outcome(p, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "Time.")
}

// DurationResult returns a duration.
//
//wink:tool readonly
//wink:example desc="Wait" input={"name":"abc","wait":"2m"} output="2m0s"
func DurationResult(tc *wink.ToolContext, p Params) (wink.ToolResult[time.Duration], error) {
	return outcome(p, p.Wait, "Duration.")
}

// RawResult returns free-form JSON.
//
//wink:tool readonly
//wink:example desc="Raw" input={"name":"abc","extra":[1,{"a":null}]} output=[1,{"a":null}]
func RawResult(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.RawJSON], error) {
	return outcome(p, p.Extra, "Raw.")
}

// NoValueResult returns no value.
//
//wink:tool
//wink:example desc="Nothing" input={"name":"abc"}
func NoValueResult(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	return outcome(p, wink.NoValue{}, "Done.")
}

// TreeResult returns a recursive struct.
//
//wink:tool readonly
//wink:example desc="Tree" input={"name":"abc"}
func TreeResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Tree], error) {
	return outcome(p, Tree{Name: p.Name, Children: []Tree{{Name: "leaf", Children: []Tree{}}}}, "Tree.")
}

// Pair holds the shared Point twice and a Record (whose Point goes under $defs too).
type Pair struct {
	// A is one point.
	A Point `json:"a"`
	// B is another.
	B Point `json:"b"`
	// Records are optional.
	Records []Record `json:"records,omitempty"`
}

// SharedResult returns a struct using a shared struct more than once.
//
//wink:tool readonly
//wink:example desc="Pair" input={"name":"abc"} output={"a":{"x":1,"y":2},"b":{"x":3,"y":4},"records":null}
func SharedResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Pair], error) {
	return outcome(p, Pair{A: Point{1, 2}, B: Point{3, 4}}, "Pair.")
}

// HiddenResult returns a value kept out of the context.
//
//wink:tool readonly
//wink:example desc="Hidden" input={"name":"abc"}
func HiddenResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Record], error) {
	r, err := outcome(p, record(p), "Kept out of the context.")
	return wink.WithoutValueInContext(r), err
}

// Rendered is a result that renders itself for the model (wink's Render) and is written as JSON for
// structuredContent.
type Rendered struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Render is what the model reads in place of the JSON.
func (r Rendered) Render() string { return r.Name + " x" + strconv.Itoa(r.Count) }

// RenderedResult returns a value that renders itself, with a message.
//
//wink:tool readonly
//wink:example desc="Rendered" input={"name":"abc"} output={"name":"abc","count":3}
func RenderedResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Rendered], error) {
	return outcome(p, Rendered{Name: p.Name, Count: len(p.Name)}, "Rendered.")
}

// ContentResult returns a value with an image, audio, an embedded resource (text and blob) and a link.
//
//wink:tool readonly
//wink:example desc="Blocks" input={"name":"abc"}
func ContentResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[]Point], error) {
	r, err := outcome(p, []Point{{1, 2}}, "With blocks.")
	png := []byte("\x89PNG\r\n\x1a\n")
	return wink.WithContent(r,
		wink.Image("image/png", png),
		wink.Audio("audio/wav", []byte("RIFF0000WAVE")),
		wink.EmbeddedResource("file:///a.txt", "text/plain", "hello"),
		wink.EmbeddedBlob("file:///a.bin", "application/octet-stream", []byte{0, 1, 2}),
		wink.ResourceLink("file:///b.txt", "b.txt", "text/plain"),
		wink.Text("a second text block"),
	), err
}

// ContentOnly returns no value and blocks only.
//
//wink:tool readonly
//wink:example desc="Blocks" input={"name":"abc"}
func ContentOnly(tc *wink.ToolContext, p Params) (wink.ToolResult[wink.NoValue], error) {
	r, err := outcome(p, wink.NoValue{}, "")
	if p.Absent || p.Fail || p.Panic {
		return r, err
	}
	return wink.WithContent(wink.Done[wink.NoValue](""), wink.Image("image/png", []byte("\x89PNG\r\n\x1a\n"))), nil
}

// ErrorResult returns a Go error.
//
//wink:tool readonly
//wink:example desc="Error" input={"name":"abc"}
func ErrorResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Point], error) {
	return wink.ToolResult[Point]{}, errors.New("shapes: a handler error")
}

// NoParamsResult takes no params and returns a struct.
//
//wink:tool readonly
func NoParamsResult(tc *wink.ToolContext) (wink.ToolResult[Point], error) {
	return wink.OK(Point{5, 6}, "Point."), nil
}

// TreeParams hold a recursive struct and a shared one twice (the inputSchema has $defs).
type TreeParams struct {
	// Root of the tree to echo.
	Root Tree `json:"root"`
	// A is one point.
	A *Point `json:"a,omitempty"`
	// B is another.
	B *Point `json:"b,omitempty"`
}

// ForestResult returns a slice of a recursive struct (its schema under $defs).
//
//wink:tool readonly
//wink:example desc="Forest" input={"root":{"name":"a","children":[{"name":"b","children":[]}]}}
func ForestResult(tc *wink.ToolContext, p TreeParams) (wink.ToolResult[[]Tree], error) {
	return wink.OK([]Tree{p.Root, {Name: "other", Children: []Tree{}}}, "Forest."), nil
}

// TreeMapResult returns a map of a recursive struct.
//
//wink:tool readonly
//wink:example desc="Trees by name" input={"root":{"name":"a","children":[]}}
func TreeMapResult(tc *wink.ToolContext, p TreeParams) (wink.ToolResult[map[string]Tree], error) {
	return wink.OK(map[string]Tree{p.Root.Name: p.Root}, "Trees."), nil
}

// TreePointerResult returns a pointer to a recursive struct, nil for a root named "none".
//
//wink:tool readonly
//wink:example desc="A tree" input={"root":{"name":"a","children":[{"name":"b","children":[]}]}}
//wink:example desc="Null" input={"root":{"name":"none","children":[]}}
func TreePointerResult(tc *wink.ToolContext, p TreeParams) (wink.ToolResult[*Tree], error) {
	if p.Root.Name == "none" {
		return wink.OK[*Tree](nil, "No tree."), nil
	}
	return wink.OK(&p.Root, "Tree."), nil
}

// Numbers holds every number kind at its extremes, fixed-size arrays, and a time with nanoseconds and an
// offset.
type Numbers struct {
	// I8 is an int8.
	I8 int8 `json:"i8"`
	// U8 is a uint8.
	U8 uint8 `json:"u8"`
	// I64 is an int64.
	I64 int64 `json:"i64"`
	// U64 is a uint64.
	U64 uint64 `json:"u64"`
	// F32 is a float32.
	F32 float32 `json:"f32"`
	// F64 is a float64.
	F64 float64 `json:"f64"`
	// Pair is a fixed-size array.
	Pair [2]int `json:"pair"`
	// Corners are a fixed-size array of the shared struct.
	Corners [2]Point `json:"corners"`
	// At is a time with nanoseconds and an offset.
	At time.Time `json:"at"`
	// Long is a long duration.
	Long time.Duration `json:"long"`
}

// NumbersResult returns every number kind at its extremes.
//
//wink:tool readonly
//wink:example desc="Extremes" input={"name":"abc"}
func NumbersResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Numbers], error) {
	return outcome(p, Numbers{
		I8: -128, U8: 255, I64: -9223372036854775808, U64: 18446744073709551615,
		F32: 3.4028235e+38, F64: 5e-324, Pair: [2]int{1, 2}, Corners: [2]Point{{0, 0}, {1, 1}},
		At:   time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("", 2*3600)),
		Long: 1000*time.Hour + 1500*time.Millisecond,
	}, "Numbers.")
}

// ArrayResult returns a fixed-size array.
//
//wink:tool readonly
//wink:example desc="Three" input={"name":"abc"} output=[1,2,3]
func ArrayResult(tc *wink.ToolContext, p Params) (wink.ToolResult[[3]int], error) {
	return outcome(p, [3]int{1, 2, 3}, "Array.")
}

// Counts is a named map type.
type Counts map[string]int

// Sparse holds pointers in slices and maps, and a named map.
type Sparse struct {
	// Points may hold nulls.
	Points []*Point `json:"points"`
	// ByName may hold nulls.
	ByName map[string]*Point `json:"by_name"`
	// Words may hold nulls.
	Words []*string `json:"words"`
	// Counts is a named map.
	Counts Counts `json:"counts"`
	// Empty is an empty map.
	Empty map[string]string `json:"empty"`
}

// SparseResult returns slices and maps holding nulls.
//
//wink:tool readonly
//wink:example desc="Sparse" input={"name":"abc"}
func SparseResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Sparse], error) {
	w := "w"
	return outcome(p, Sparse{
		Points: []*Point{{1, 2}, nil}, ByName: map[string]*Point{"a": nil, "b": {3, 4}},
		Words: []*string{&w, nil}, Counts: Counts{"x": 1}, Empty: map[string]string{},
	}, "Sparse.")
}

// CountsResult returns a named map type.
//
//wink:tool readonly
//wink:example desc="Counts" input={"name":"abc"} output={"abc":3}
func CountsResult(tc *wink.ToolContext, p Params) (wink.ToolResult[Counts], error) {
	return outcome(p, Counts{p.Name: len(p.Name)}, "Counts.")
}
