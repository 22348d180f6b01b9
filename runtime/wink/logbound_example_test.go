package wink_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
	"github.com/winkgen/wink/runtime/wink/internal/winktest"
)

// A session's ToolLog keeps its newest calls within Dispatcher.LogLimits: here 4 entries, so after ten
// calls it holds the last ones (a full log drops its oldest half). Events sees every call; KeepAllLogs
// would keep them all in the session too.
func ExampleLogLimits() {
	s := session.New()
	seen := 0
	d := &wink.Dispatcher{Registry: wink.MustRegistry(winktest.WinkTools()), Session: s,
		LogLimits: wink.LogLimits{Entries: 4}, Events: func(*wink.ToolInvoked) { seen++ }}
	for i := range 10 {
		_, _ = d.Dispatch(context.Background(), wink.Call{ID: "call_" + strconv.Itoa(i), Name: "build", Arguments: []byte(`{}`)})
	}
	var ids []string
	for ev := range session.Values(s, wink.ToolLog) {
		ids = append(ids, ev.CallID)
	}
	fmt.Println(strings.Join(ids, " "))
	fmt.Println(seen, "events")
	// Output:
	// call_6 call_7 call_8 call_9
	// 10 events
}
