// Package diagdefaults has bad defaults of arrays and objects and bad bounds on durations.
package diagdefaults

import (
	"time"

	"github.com/winkgen/wink/runtime/wink"
)

// Pair is two numbers.
type Pair struct {
	A int `json:"a"`
	B int `json:"b"`
}

// P has bad tags.
type P struct {
	Tags   []string       `json:"tags,omitempty" wink:"default=[\"a\",1]"`
	Many   []string       `json:"many,omitempty" wink:"maxItems=2,default=[\"a\",\"b\",\"c\"]"`
	Short  []string       `json:"short,omitempty" wink:"minLength=2,default=[\"a\"]"`
	Pair   Pair           `json:"pair,omitempty" wink:"default={\"a\":1,\"c\":2}"`
	Scalar []int          `json:"scalar,omitempty" wink:"default=3"`
	Broken map[string]int `json:"broken,omitempty" wink:"default={\"x\":}"`
	N      int            `json:"n" wink:"min=1s"`
	Wait   time.Duration  `json:"wait" wink:"min=2h,max=1h"`
	Poll   time.Duration  `json:"poll,omitempty" wink:"min=1s,default=30ms"`
	Weird  time.Duration  `json:"weird" wink:"max=5"`
}

// Tool is a tool.
//
//wink:tool
func Tool(tc *wink.ToolContext, p P) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("done"), nil
}
