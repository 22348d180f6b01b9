// Package headerstest has a tool whose arguments MCP's Streamable HTTP transport mirrors into headers
// (wink:"header=..."), for runtime/mcpserver's tests.
package headerstest

//go:generate go tool winkgen

import (
	"strconv"

	"github.com/winkgen/wink/runtime/wink"
)

// QueryParams are a routed query's arguments; all required, so that the Go SDK's client (which reads
// no inputSchema whose properties have a list of types) mirrors them.
type QueryParams struct {
	// Region is where the query runs.
	Region string `json:"region" wink:"header=Region"`
	// Shard is the shard it runs on.
	Shard int32 `json:"shard" wink:"header=Shard"`
	// Fresh skips the cache.
	Fresh bool `json:"fresh" wink:"header=Fresh"`
	// Query is what runs; it stays in the body.
	Query string `json:"query"`
}

// RouteQuery says where a query runs.
//
//wink:tool readonly
func RouteQuery(tc *wink.ToolContext, p QueryParams) (wink.ToolResult[string], error) {
	return wink.OK(p.Region+"/"+strconv.Itoa(int(p.Shard))+"/"+strconv.FormatBool(p.Fresh)+": "+p.Query, "Routed."), nil
}

// PageParams have an optional argument, whose "type" is a list (["integer","null"]).
type PageParams struct {
	// Region is where the query runs.
	Region string `json:"region" wink:"header=Region"`
	// Shard is the shard it runs on.
	Shard int32 `json:"shard" wink:"header=Shard"`
	// Fresh skips the cache.
	Fresh bool `json:"fresh" wink:"header=Fresh"`
	// Query is what runs; it stays in the body.
	Query string `json:"query"`
	// Limit bounds the rows; optional.
	Limit *int32 `json:"limit,omitempty"`
}

// PageQuery says where a query runs, a page at a time.
//
//wink:tool readonly
func PageQuery(tc *wink.ToolContext, p PageParams) (wink.ToolResult[string], error) {
	return RouteQuery(tc, QueryParams{Region: p.Region, Shard: p.Shard, Fresh: p.Fresh, Query: p.Query})
}
