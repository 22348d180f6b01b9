package strictjson

import "math/big"

// MustRat parses a decimal literal into an exact rational, for generated multipleOf checks. It panics on a
// malformed literal, which the generator never emits.
func MustRat(lit string) *big.Rat {
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		panic("strictjson: bad rational literal " + lit)
	}
	return r
}
