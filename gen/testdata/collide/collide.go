// Package collide declares package-level identifiers named like the packages generated code imports
// (time, math, strconv, regexp, slices, maps, strictjson, session, wink) and imports wink under another
// name. (A field named "-" with json:"-," is diagnosed, as Gemini refuses that name: see diag_dialects.)
package collide

import (
	w "github.com/winkgen/wink/runtime/wink"
	stdtime "time"
)

var (
	time       = 1
	math       = "m"
	strconv    = struct{}{}
	regexp     = []int{1}
	slices     = 2
	maps       = 3
	strictjson = 4
	session    = 5
	wink       = 6
	wink2      = 7
)

// Level is an integer enum.
type Level int

// Levels.
const (
	Low Level = iota
	High
)

// Params are the arguments of collide.
type Params struct {
	When   stdtime.Time     `json:"when"`
	Wait   stdtime.Duration `json:"wait,omitempty" wink:"default=2s"`
	Name   string           `json:"name" wink:"pattern='^[a-z]+$',maxLength=9"`
	Ratio  float64          `json:"ratio" wink:"multipleOf=0.5,max=10"`
	Hidden string           `json:"-"`
	Level  Level            `json:"level"`
	Tags   map[string]Item  `json:"tags,omitempty"`
	List   []Item           `json:"list,omitempty"`
}

// Item is an element.
type Item struct {
	N int `json:"n"`
}

// Result is what collide returns.
type Result struct {
	At stdtime.Time `json:"at"`
}

// Collide collides.
//
//wink:tool
//wink:idempotent strategy=params keys=name ttl=1h
//wink:example desc="All" input={"when":"2026-01-02T15:04:05Z","name":"abc","ratio":1.5,"level":1}
func Collide(tc *w.ToolContext, p Params) (w.ToolResult[Result], error) {
	_ = []any{time, math, strconv, regexp, slices, maps, strictjson, session, wink, wink2}
	return w.OK(Result{At: p.When}, "ok"), nil
}
