package everything

import (
	"strconv"

	"github.com/winkgen/wink/runtime/wink"
)

// RouteParams are the arguments of test_route_query: region and priority are mirrored into the
// Mcp-Param-Region and Mcp-Param-Priority headers over Streamable HTTP (2026-07-28), so a load balancer
// can route on them without reading the body.
type RouteParams struct {
	// Region is where the query runs.
	Region string `json:"region" wink:"header=Region"`
	// Priority orders the queries of a region.
	Priority int32 `json:"priority,omitempty" wink:"header=Priority"`
	// Verbose asks for a longer answer.
	Verbose *bool `json:"verbose,omitempty" wink:"header=Verbose"`
	// Query is what runs; it stays in the body.
	Query string `json:"query"`
}

// TestRouteQuery answers where a query runs, from arguments the client also sends as headers.
//
//wink:tool readonly
func TestRouteQuery(tc *wink.ToolContext, p RouteParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("Query " + strconv.Quote(p.Query) + " runs in " + p.Region + " at priority " + strconv.Itoa(int(p.Priority)) + "."), nil
}
