// Package decls declares types diag_foreign's tools use that generation refuses: each diagnostic points at
// the field here, by line and column.
package decls

// Inner has fields no schema can state.
type Inner struct {
	Name string     `json:"name"`
	C    complex128 `json:"c"`
	Ch   chan int   `json:"ch"`
}

// Base is embedded by diag_foreign's params.
type Base struct {
	ID  string `json:"id"`
	Any any    `json:"any"`
	S   int    `json:"s,string"`
}
