// Package diagheaders has header tags MCP's rules refuse.
package diagheaders

import "github.com/winkgen/wink/runtime/wink"

// Inner is nested.
type Inner struct {
	// Deep is below the top level.
	Deep string `json:"deep" wink:"header=Deep"`
}

// P has bad header tags.
type P struct {
	A string   `json:"a" wink:"header=My Region"`
	B string   `json:"b" wink:"header=Region:1"`
	C string   `json:"c" wink:"header=Régión"`
	D float64  `json:"d" wink:"header=Score"`
	E []string `json:"e" wink:"header=Items"`
	F int64    `json:"f" wink:"header=Big"`
	G string   `json:"g" wink:"header=Same"`
	H string   `json:"h" wink:"header=same"`
	I Inner    `json:"i"`
	J string   `json:"j" wink:"header"`
}

// Route routes a query.
//
//wink:tool
func Route(tc *wink.ToolContext, p P) (wink.ToolResult[string], error) {
	return wink.OK("", "Routed."), nil
}
