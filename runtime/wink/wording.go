package wink

import (
	"fmt"
	"strconv"
)

// FailureText is the text the dispatcher gives the model when tool failed with cause (a handler's
// error, a recovered panic, a session that could not be kept):
//
//	Tool "tool" failed: cause
//
// A server that answers a call the dispatcher could not (say, after a panic outside it) words the
// failure the same way with it.
func FailureText(tool, cause string) string {
	return "Tool " + strconv.Quote(tool) + " failed: " + cause
}

// PanicText is the text of a recovered panic value as the dispatcher writes it in a failure: an error's
// message, a string as is, any other value as fmt.Sprint formats it.
func PanicText(v any) string {
	switch v := v.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return fmt.Sprint(v)
}
