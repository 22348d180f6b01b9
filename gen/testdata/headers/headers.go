// Package headers has a tool whose arguments MCP mirrors into HTTP headers.
package headers

import "github.com/winkgen/wink/runtime/wink"

// Region is a deployment region.
type Region string

// Regions.
const (
	RegionEU Region = "eu"
	RegionUS Region = "us"
)

// P are routed arguments.
type P struct {
	// Region is routed on.
	Region Region `json:"region" wink:"header=Region"`
	// Tenant is routed on too.
	Tenant *string `json:"tenant,omitempty" wink:"header=X-Tenant_1"`
	// Shard is bounded.
	Shard int `json:"shard" wink:"header=Shard,min=0,max=1023"`
	// Dry is a flag.
	Dry bool `json:"dry" wink:"header=Dry"`
	// Query stays in the body.
	Query string `json:"query"`
}

// Route routes a query.
//
//wink:tool
func Route(tc *wink.ToolContext, p P) (wink.ToolResult[string], error) {
	return wink.OK(p.Query, "Routed."), nil
}
