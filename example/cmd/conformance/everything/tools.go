// Package everything holds the tools of the MCP conformance server (example/cmd/conformance): the tools
// the server scenarios of @modelcontextprotocol/conformance call, written as ordinary winkgen handlers.
package everything

//go:generate go tool winkgen

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// RedPixelPNG is a 1x1 red PNG image.
var RedPixelPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

// SilentWAV is a WAV file of one silent sample (8 kHz, 8-bit mono).
var SilentWAV = []byte("RIFF%\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00@\x1f\x00\x00\x01\x00\x08\x00data\x01\x00\x00\x00\x80")

// TestSimpleText returns simple text content.
//
//wink:tool readonly
func TestSimpleText(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("This is a simple text response for testing."), nil
}

// TestImageContent returns an image: a 1x1 red PNG.
//
//wink:tool readonly
func TestImageContent(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.WithContent(wink.Done[wink.NoValue](""), wink.Image("image/png", RedPixelPNG)), nil
}

// TestAudioContent returns audio: a WAV file of one silent sample.
//
//wink:tool readonly
func TestAudioContent(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.WithContent(wink.Done[wink.NoValue](""), wink.Audio("audio/wav", SilentWAV)), nil
}

// TestEmbeddedResource returns an embedded text resource.
//
//wink:tool readonly
func TestEmbeddedResource(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.WithContent(wink.Done[wink.NoValue](""),
		wink.EmbeddedResource("test://embedded-resource", "text/plain", "This is an embedded resource content.")), nil
}

// TestMultipleContentTypes returns text, an image and an embedded resource.
//
//wink:tool readonly
func TestMultipleContentTypes(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.WithContent(wink.Done[wink.NoValue]("Multiple content types test:"),
		wink.Image("image/png", RedPixelPNG),
		wink.EmbeddedResource("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`)), nil
}

// TestToolWithLogging sends three log messages while it runs.
//
//wink:tool readonly
func TestToolWithLogging(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	tc.Log(wink.LogInfo, "Tool execution started")
	time.Sleep(50 * time.Millisecond)
	tc.Log(wink.LogInfo, "Tool processing data")
	time.Sleep(50 * time.Millisecond)
	tc.Log(wink.LogInfo, "Tool execution completed")
	return wink.Done[wink.NoValue]("Tool with logging executed successfully"), nil
}

// TestErrorHandling always fails.
//
//wink:tool readonly
func TestErrorHandling(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.Failure[wink.NoValue]("This tool intentionally returns an error for testing"), nil
}

// TestToolWithProgress reports progress 0, 50 and 100 of 100.
//
//wink:tool readonly
func TestToolWithProgress(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		tc.Progress(p, 100, "")
	}
	return wink.Done[wink.NoValue]("Tool with progress executed successfully"), nil
}

// SamplingParams are the arguments of test_sampling.
type SamplingParams struct {
	// Prompt is the prompt to send to the LLM.
	Prompt string `json:"prompt"`
}

// TestSampling asks the client's model to answer a prompt.
//
//wink:tool readonly
func TestSampling(tc *wink.ToolContext, p SamplingParams) (wink.ToolResult[wink.NoValue], error) {
	answer, err := tc.SampleText(p.Prompt, 100)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("LLM response: " + answer), nil
}

// ElicitationParams are the arguments of test_elicitation.
type ElicitationParams struct {
	// Message is the message to show the user.
	Message string `json:"message"`
}

// UserInfo is what test_elicitation asks the user.
//
//wink:form
type UserInfo struct {
	// User's response
	Username string `json:"username"`
	// User's email address
	Email string `json:"email"`
}

// TestElicitation asks the user for a username and an email address.
//
//wink:tool readonly
func TestElicitation(tc *wink.ToolContext, p ElicitationParams) (wink.ToolResult[wink.NoValue], error) {
	u, action, err := wink.Elicit(tc, p.Message, WinkFormUserInfo)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	content := "{}"
	if action == wink.ElicitAccept {
		content = `{"username":` + strconv.Quote(u.Username) + `,"email":` + strconv.Quote(u.Email) + `}`
	}
	return wink.Done[wink.NoValue]("User response: action=" + string(action) + ", content=" + content), nil
}

// Status is an account status.
type Status string

// Statuses.
const (
	Active   Status = "active"
	Inactive Status = "inactive"
	Pending  Status = "pending"
)

// Defaults is a form with a default for every primitive type (SEP-1034).
//
//wink:form
type Defaults struct {
	// Name of the user.
	Name string `json:"name" wink:"default='John Doe'"`
	// Age in years.
	Age int `json:"age" wink:"default=30"`
	// Score out of 100.
	Score float64 `json:"score" wink:"default=95.5"`
	// Status of the account.
	Status Status `json:"status" wink:"default=active"`
	// Verified account.
	Verified bool `json:"verified" wink:"default=true"`
}

// TestElicitationSep1034Defaults asks for a form whose fields all have defaults.
//
//wink:tool readonly name=test_elicitation_sep1034_defaults
func TestElicitationSep1034Defaults(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	d, action, err := wink.Elicit(tc, "Please review and update the form fields with defaults", WinkFormDefaults)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	content := "{}"
	if action == wink.ElicitAccept {
		content = `{"name":` + strconv.Quote(d.Name) + `,"age":` + strconv.Itoa(d.Age) +
			`,"score":` + strconv.FormatFloat(d.Score, 'g', -1, 64) + `,"status":` + strconv.Quote(string(d.Status)) +
			`,"verified":` + strconv.FormatBool(d.Verified) + `}`
	}
	return wink.Done[wink.NoValue]("Elicitation completed: action=" + string(action) + ", content=" + content), nil
}

// Option is an untitled choice.
type Option string

// Options.
const (
	Option1 Option = "option1"
	Option2 Option = "option2"
	Option3 Option = "option3"
)

// Titled is a titled single choice.
type Titled string

// Titled values.
const (
	Value1 Titled = "value1" //wink:enum title="First Option"
	Value2 Titled = "value2" //wink:enum title="Second Option"
	Value3 Titled = "value3" //wink:enum title="Third Option"
)

// Legacy is the choice stated with the deprecated enumNames (see LegacyForm).
type Legacy string

// Legacy values.
const (
	Opt1 Legacy = "opt1"
	Opt2 Legacy = "opt2"
	Opt3 Legacy = "opt3"
)

// TitledChoice is a titled multiple choice.
type TitledChoice string

// Titled choices.
const (
	Choice1 TitledChoice = "value1" //wink:enum title="First Choice"
	Choice2 TitledChoice = "value2" //wink:enum title="Second Choice"
	Choice3 TitledChoice = "value3" //wink:enum title="Third Choice"
)

// Enums is a form with every kind of enum (SEP-1330).
//
//wink:form
type Enums struct {
	// An untitled single choice.
	UntitledSingle Option `json:"untitledSingle"`
	// A titled single choice.
	TitledSingle Titled `json:"titledSingle"`
	// A single choice with legacy titles.
	LegacyEnum Legacy `json:"legacyEnum"`
	// An untitled multiple choice.
	UntitledMulti []Option `json:"untitledMulti"`
	// A titled multiple choice.
	TitledMulti []TitledChoice `json:"titledMulti"`
}

// TestElicitationSep1330Enums asks for a form with every kind of enum.
//
//wink:tool readonly name=test_elicitation_sep1330_enums
func TestElicitationSep1330Enums(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	e, action, err := wink.Elicit(tc, "Please select options from the enum fields", LegacyForm)
	if err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	content := "{}"
	if action == wink.ElicitAccept {
		content = `{"untitledSingle":` + strconv.Quote(string(e.UntitledSingle)) + `,"titledSingle":` + strconv.Quote(string(e.TitledSingle)) +
			`,"legacyEnum":` + strconv.Quote(string(e.LegacyEnum)) + `,"untitledMulti":` + quoteAll(e.UntitledMulti) +
			`,"titledMulti":` + quoteAll(e.TitledMulti) + `}`
	}
	return wink.Done[wink.NoValue]("Elicitation completed: action=" + string(action) + ", content=" + content), nil
}

func quoteAll[S ~string](vs []S) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(string(v))
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestReconnection closes its SSE stream mid-call (SEP-1699); the client gets the answer by
// reconnecting with Last-Event-ID.
//
//wink:tool readonly
func TestReconnection(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	time.Sleep(50 * time.Millisecond)
	mcpserver.CloseSSEStream(tc, 100*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	return wink.Done[wink.NoValue]("Reconnection test completed"), nil
}
