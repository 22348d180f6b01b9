// Package clienttest holds tools that talk to their caller during a call and return content blocks: the
// tests of runtime/wink, runtime/mcpserver and runtime/loop dispatch them.
package clienttest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// PNG is a 1x1 red pixel.
var PNG = []byte{0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00,
	0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01,
	0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82}

// WAV is a silent 44-byte WAV header with no samples.
var WAV = []byte("RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x44\xac\x00\x00\x88X\x01\x00\x02\x00\x10\x00data\x00\x00\x00\x00")

// PDF is a tiny PDF document's bytes (only its header: the adapters pass bytes through).
var PDF = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

// Showcase returns a text, an image, audio, an embedded text resource, an embedded PDF and a link.
//
//wink:tool readonly
func Showcase(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	link := wink.ResourceLink("file:///notes/plan.md", "plan.md", "text/markdown")
	link.Description = "The plan"
	return wink.WithContent(wink.Done[wink.NoValue]("Here is everything:"),
		wink.Text("A caption."),
		wink.Image("image/png", PNG),
		wink.Audio("audio/wav", WAV),
		wink.EmbeddedResource("test://embedded", "text/plain", "Embedded text."),
		wink.EmbeddedBlob("test://doc.pdf", "application/pdf", PDF),
		link,
	), nil
}

// Fails returns a failure that tries to carry an image (failures are their text alone).
//
//wink:tool
func Fails(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	return wink.WithContent(wink.Failure[wink.NoValue]("It failed."), wink.Image("image/png", PNG)), nil
}

// Chatty logs at every level from debug to error while it works.
//
//wink:tool readonly
func Chatty(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	for _, l := range []wink.LogLevel{wink.LogDebug, wink.LogInfo, wink.LogWarning, wink.LogError} {
		tc.Log(l, "at "+string(l))
	}
	return wink.Done[wink.NoValue]("Logged."), nil
}

// AskParams are the arguments of ask_model.
type AskParams struct {
	// Prompt for the client's model.
	Prompt string `json:"prompt"`
}

// AskModel asks the client's model and returns its answer.
//
//wink:tool readonly
func AskModel(tc *wink.ToolContext, p AskParams) (wink.ToolResult[string], error) {
	res, err := tc.Sample(wink.SampleRequest{
		Messages:     []wink.SampleMessage{{Role: "user", Content: wink.Text(p.Prompt)}},
		SystemPrompt: "Be brief.", MaxTokens: 100, ModelHints: []string{"claude"},
	})
	if err != nil {
		return wink.ToolResult[string]{}, err
	}
	return wink.OK(res.Content.Text, "LLM response ("+res.Model+"):"), nil
}

// Plan is a subscription plan.
type Plan string

// Plans.
const (
	Free Plan = "free" //wink:enum title="Free plan"
	Pro  Plan = "pro"  //wink:enum title="Pro plan"
)

// Topic is a newsletter topic.
type Topic string

// Topics.
const (
	News    Topic = "news"
	Updates Topic = "updates"
	Offers  Topic = "offers"
)

// SignUp is the form sign_up asks the user to fill.
//
//wink:form
type SignUp struct {
	// Name of the user.
	Name string `json:"name" wink:"minLength=1,maxLength=50"`
	// Age in years.
	Age int `json:"age" wink:"min=13,max=150,default=30"`
	// Plan to start on.
	Plan Plan `json:"plan" wink:"default=free"`
	// Topics to receive.
	Topics []Topic `json:"topics,omitempty"`
	// Newsletter wanted.
	Newsletter bool `json:"newsletter" wink:"default=false"`
}

// Registered is what sign_up returns.
type Registered struct {
	// Action is the user's answer: accept, decline or cancel.
	Action string `json:"action"`
	// Summary describes the accepted form.
	Summary string `json:"summary,omitempty"`
}

// SignUpUser asks the user to fill the sign-up form, twice when the first answer is a decline.
//
//wink:tool name=sign_up
func SignUpUser(tc *wink.ToolContext) (wink.ToolResult[Registered], error) {
	v, action, err := wink.Elicit(tc, "Please sign up.", WinkFormSignUp)
	if err != nil {
		return wink.ToolResult[Registered]{}, err
	}
	if action == wink.ElicitDecline {
		v, action, err = wink.Elicit(tc, "Are you sure? Please sign up.", WinkFormSignUp)
		if err != nil {
			return wink.ToolResult[Registered]{}, err
		}
	}
	if action != wink.ElicitAccept {
		return wink.OK(Registered{Action: string(action)}, "Not signed up."), nil
	}
	topics := make([]string, len(v.Topics))
	for i, t := range v.Topics {
		topics[i] = string(t)
	}
	s := v.Name + ", " + strconv.Itoa(v.Age) + ", " + string(v.Plan) + ", [" + strings.Join(topics, " ") + "], newsletter " + strconv.FormatBool(v.Newsletter)
	return wink.OK(Registered{Action: string(action), Summary: s}, "Signed up."), nil
}

// Option is an untitled single-select.
type Option string

// Options.
const (
	Option1 Option = "option1"
	Option2 Option = "option2"
	Option3 Option = "option3"
)

// Titled is a titled single- and multi-select.
type Titled string

// Titled values.
const (
	Value1 Titled = "value1" //wink:enum title="First Option"
	Value2 Titled = "value2" //wink:enum title="Second Option"
)

// Legacy is a titled single-select stated with enumNames.
//
//wink:enum legacy
type Legacy string

// Legacy values.
const (
	Opt1 Legacy = "opt1" //wink:enum title="Option One"
	Opt2 Legacy = "opt2" //wink:enum title="Option Two"
)

// Choices has every kind of select MCP's elicitation has (SEP-1330) and defaults of every primitive
// (SEP-1034).
//
//wink:form
type Choices struct {
	// UntitledSingle is an untitled single-select.
	UntitledSingle Option `json:"untitledSingle" wink:"default=option1"`
	// TitledSingle is a titled single-select.
	TitledSingle Titled `json:"titledSingle"`
	// LegacyEnum is a legacy titled single-select.
	LegacyEnum Legacy `json:"legacyEnum"`
	// UntitledMulti is an untitled multi-select.
	UntitledMulti []Option `json:"untitledMulti,omitempty"`
	// TitledMulti is a titled multi-select.
	TitledMulti []Titled `json:"titledMulti,omitempty"`
	// Score with a default.
	Score float64 `json:"score" wink:"default=95.5"`
	// Verified with a default.
	Verified bool `json:"verified" wink:"default=true"`
}

// Choose asks the user for choices and returns them as it decoded them.
//
//wink:tool
func Choose(tc *wink.ToolContext) (wink.ToolResult[Choices], error) {
	v, action, err := wink.Elicit(tc, "Choose.", WinkFormChoices)
	if err != nil {
		return wink.ToolResult[Choices]{}, err
	}
	return wink.OK(v, "Chosen: "+string(action)+"."), nil
}
