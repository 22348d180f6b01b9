// Package mapsoptional has maps of structs, pointers, slices and maps, and optional arrays and structs
// whose zero values break their own constraints.
package mapsoptional

import "github.com/winkgen/wink/runtime/wink"

// Item is an item.
type Item struct {
	// Name is required and not empty.
	Name string `json:"name" wink:"minLength=1"`
}

// Prefix is a struct whose zero value is invalid.
type Prefix struct {
	// Value is not empty.
	Value string `json:"value" wink:"minLength=1"`
}

// Params are the arguments of store.
type Params struct {
	// ByName maps names to items.
	ByName map[string]Item `json:"by_name"`
	// Refs maps names to optional items.
	Refs map[string]*Item `json:"refs"`
	// Lists maps names to lists of items.
	Lists map[string][]Item `json:"lists"`
	// Nested maps names to maps of items.
	Nested map[string]map[string]Item `json:"nested"`
	// Pairs maps names to pairs of items.
	Pairs map[string][2]Item `json:"pairs"`
	// Pair is optional.
	Pair [2]string `json:"pair,omitempty" wink:"minLength=1"`
	// Prefix is optional.
	Prefix Prefix `json:"prefix,omitempty"`
	// Anon is optional.
	Anon struct {
		// X is not empty.
		X string `json:"x" wink:"minLength=1"`
	} `json:"anon,omitempty"`
}

// Store stores and returns what it got.
//
//wink:tool
func Store(tc *wink.ToolContext, p Params) (wink.ToolResult[Params], error) {
	return wink.OK(p, "Stored."), nil
}
