// Package embedded flattens embedded structs as encoding/json does.
package embedded

import "github.com/winkgen/wink/runtime/wink"

// Paging is shared by list tools.
type Paging struct {
	Offset int `json:"offset,omitempty" wink:"min=0"`
	Limit  int `json:"limit,omitempty" wink:"min=1,max=50,default=20"`
}

// Sort is embedded one level deeper.
type Sort struct {
	Field string `json:"field,omitempty"`
}

// Ordering embeds Sort.
type Ordering struct {
	Sort
	Desc bool `json:"desc,omitempty"`
}

// ListParams embeds Paging and Ordering; its own Limit-free fields sit beside them.
type ListParams struct {
	Paging
	Ordering
	Query string `json:"query"`
	// Field shadows Ordering.Sort.Field (shallower wins).
	Field string `json:"field"`
	// Named keeps an embedded struct as a named field.
	Sort `json:"sort"`
}

// Items lists items.
type Items struct {
	Names []string `json:"names"`
}

// ListItems lists items page by page.
//
//wink:tool
//wink:example desc="First page" input={"query":"a","field":"x","sort":{"field":"name"}} output={"names":[]}
func ListItems(tc *wink.ToolContext, p ListParams) (wink.ToolResult[Items], error) {
	return wink.OK(Items{}, "listed"), nil
}
