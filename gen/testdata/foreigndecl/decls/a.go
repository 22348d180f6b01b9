// Package decls declares the types foreigndecl's tools use: generation reads their declarations (fields,
// enum constants in declaration order, //wink:constraints) as it reads its own package's.
package decls

// Color is declared in this file; some of its values are declared in b.go.
type Color string

// Colors, declared two on a line, the first name after the second in alphabetical order.
const Zinc, Amber Color = "zinc", "amber"

// Where is a place.
type Where struct {
	City  string `json:"city"`
	Floor int    `json:"floor,omitempty" wink:"min=0,max=200"`
}

// Label is a short tag.
//
//wink:constraints maxLength=12
type Label string
