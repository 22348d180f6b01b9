package everything

import "github.com/winkgen/wink/runtime/wink"

// The fixture tools of the suite's server-stateless scenario (protocol 2026-07-28).

// TestMissingCapability needs the client's sampling capability: a client that did not declare it gets
// -32021 on 2026-07-28 (wink.ToolContext.RequireClient), a tool error on earlier revisions.
//
//wink:tool readonly
func TestMissingCapability(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	if err := tc.RequireClient(wink.CapSampling); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	answer, err := tc.SampleText("Say hello.", 20)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("The client's model said: " + answer), nil
}

// TestLoggingTool sends log messages: on 2026-07-28 only to a request that named a log level in its
// _meta.
//
//wink:tool readonly
func TestLoggingTool(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	tc.Log(wink.LogInfo, "Logging tool started")
	tc.Log(wink.LogInfo, "Logging tool completed")
	return wink.Done[wink.NoValue]("Logged two messages."), nil
}

// TestStreamingElicitation asks the user for a username and an email address: on 2026-07-28 the question
// travels in an input-required result, never as a request on the response stream.
//
//wink:tool readonly
func TestStreamingElicitation(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	u, action, err := wink.Elicit(tc, "Please provide your information", WinkFormUserInfo)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	if action != wink.ElicitAccept {
		return wink.Done[wink.NoValue]("Elicitation " + string(action) + "."), nil
	}
	return wink.Done[wink.NoValue]("Hello, " + u.Username + "."), nil
}
