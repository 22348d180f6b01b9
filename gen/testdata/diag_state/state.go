// Package diagstate has misplaced and malformed //wink:state directives.
package diagstate

// Count is not a struct.
//
//wink:state
type Count int

// Keyed has a key it cannot take.
//
//wink:state name=x
type Keyed struct{ A int }

// Twice has two directives.
//
//wink:state
//wink:state
type Twice struct{ A int }

// Handler is a function.
//
//wink:state
func Handler() {}
