package session

import "fmt"

// fmtAny formats a panic value for an error message (error path only).
func fmtAny(v any) string { return fmt.Sprint(v) }
