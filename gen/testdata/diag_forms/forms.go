// Package forms declares forms outside MCP's elicitation subset.
package forms

// Level is an integer enum.
type Level int

// Levels.
const (
	Low  Level = 1
	High Level = 2
)

// Inner is nested.
type Inner struct {
	X string `json:"x"`
}

// Bad has a field of every kind a form cannot state.
//
//wink:form
type Bad struct {
	Nested Inner             `json:"nested"`
	Tags   []string          `json:"tags"`
	Attrs  map[string]string `json:"attrs"`
	Level  Level             `json:"level"`
	Code   string            `json:"code" wink:"pattern=^[a-z]+$"`
	Host   string            `json:"host" wink:"format=hostname"`
}

// NotStruct is not a struct.
//
//wink:form
type NotStruct string

// Handler is not a type.
//
//wink:form
func Handler() {}

const (
	A, B Level = 3, 4 //wink:enum title="Two at once"
)

// Titled types are titled on their constants.
//
//wink:enum title="Wrong"
type Titled string

// Wrong place for legacy.
const Lone Titled = "lone" //wink:enum legacy
