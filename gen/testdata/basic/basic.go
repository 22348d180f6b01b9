// Package basic declares one tool using every scalar kind, enums, defaults, pointers, slices, arrays, maps
// and time.
package basic

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Color is a string enum.
type Color string

// Colors.
const (
	Red   Color = "red"
	Green Color = "green"
	Blue  Color = "blue"
)

// Level is an integer enum.
type Level int8

// Levels.
const (
	Low  Level = 1
	High Level = 2
)

// Celsius is a named float.
type Celsius float64

// Params covers the kinds.
type Params struct {
	Name    string            `json:"name" wink:"minLength=1,maxLength=10,pattern='[a-z]+'"`
	Count   uint16            `json:"count" wink:"max=500,multipleOf=5"`
	Delta   int32             `json:"delta,omitempty" wink:"exclusiveMin=-10,exclusiveMax=10,default=0"`
	Ratio   float32           `json:"ratio" wink:"min=0,max=1"`
	Temp    Celsius           `json:"temp" wink:"multipleOf=0.5"`
	On      bool              `json:"on"`
	Color   Color             `json:"color" wink:"default=green"`
	Allowed []Color           `json:"allowed" wink:"enum=red|blue,uniqueItems"`
	Level   Level             `json:"level"`
	When    time.Time         `json:"when"`
	Maybe   *int              `json:"maybe"`
	Tags    []string          `json:"tags" wink:"minItems=1,maxItems=3,uniqueItems"`
	Grid    [2]int            `json:"grid"`
	Meta    map[string]int    `json:"meta"`
	Email   string            `json:"email,omitempty" wink:"format=email"`
	Skip    string            `json:"-"`
	hidden  string            //nolint:unused
	Opt     *Color            `json:"opt"`
	Nested  map[string][]bool `json:"nested,omitempty"`
	Default *string           `json:"default_ptr" wink:"default='a b'"`
}

// Result is the tool's result.
type Result struct {
	OK bool `json:"ok"`
}

// Kinds exercises every kind.
//
//wink:tool scopes=docs:read,https://docs.example.com/search task=optional rate=100/m burst=20 callers=both
//wink:example desc="Everything" input={"name":"ab","count":10,"ratio":0.5,"temp":20.5,"on":true,"allowed":["red"],"level":1,"when":"2026-01-02T15:04:05+01:00","maybe":null,"tags":["x"],"grid":[1,2],"meta":{"b":2,"a":1}} output={"ok":true}
func Kinds(tc *wink.ToolContext, p Params) (wink.ToolResult[Result], error) {
	return wink.OK(Result{OK: true}, "ok"), nil
}
