// Package empty has params holding objects without properties (empty structs), which Gemini cannot
// state: each is diagnosed at its field, whether required or optional, however deep, and a tool whose
// params type is itself empty (a tool without parameters) is not.
package empty

import "github.com/winkgen/wink/runtime/wink"

// Marker has no fields.
type Marker struct{}

// Hidden has only an unexported field: no JSON fields either.
type Hidden struct {
	n int
}

// Inner mixes an empty struct with a field Gemini can state.
type Inner struct {
	Mark Marker `json:"mark"`
	Name string `json:"name"`
}

// Wrapper holds an object whose only field is empty.
type Wrapper struct {
	Only Marker `json:"only"`
}

// P has empty structs everywhere.
type P struct {
	Required Marker               `json:"required"`
	Optional *Marker              `json:"optional,omitempty"`
	Set      map[string]Marker    `json:"set"`
	List     []Marker             `json:"list"`
	Hidden   Hidden               `json:"hidden"`
	Inner    Inner                `json:"inner"`
	Deep     []map[string]Wrapper `json:"deep"`
	Name     string               `json:"name"`
}

// Use takes empty structs.
//
//wink:tool
func Use(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}

// Nothing has no parameters at all.
type Nothing struct{}

// None takes no parameters: fine for Gemini (no "parameters" in its declaration).
//
//wink:tool
func None(tc *wink.ToolContext, p Nothing) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("ok"), nil
}
