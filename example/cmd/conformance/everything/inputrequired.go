package everything

import (
	"context"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// The fixtures of the suite's input-required-result scenarios (protocol 2026-07-28, multi round-trip
// requests): tools, and a prompt, that ask the client questions named by keys they choose, several at
// once, over one or more rounds. Each is written once with wink.Round; at 2025-11-25 the same handlers
// send the questions to the client as requests.

// PersonName is the answer to "what is your name".
//
//wink:form
type PersonName struct {
	// The name.
	Name string `json:"name"`
}

// Confirm is a yes or no.
//
//wink:form
type Confirm struct {
	// Whether it is confirmed.
	OK bool `json:"ok"`
}

// FavoriteColor is the answer to "what is your favorite color".
//
//wink:form
type FavoriteColor struct {
	// The color.
	Color string `json:"color"`
}

// PromptContext is what the prompt test_input_required_result_prompt asks for.
//
//wink:form
type PromptContext struct {
	// The context the prompt uses.
	Context string `json:"context"`
}

// hello greets the person a form answer names.
func hello(a *wink.FormAnswer[PersonName]) string {
	if a.Action != wink.ElicitAccept {
		return "Hello, whoever you are (the form was " + string(a.Action) + ")!"
	}
	return "Hello, " + a.Value.Name + "!"
}

// TestInputRequiredResultElicitation asks the user's name under the key user_name, then greets them.
//
//wink:tool readonly
func TestInputRequiredResultElicitation(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	name := wink.AskForm(r, "user_name", "What is your name?", WinkFormPersonName)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue](hello(name)), nil
}

// TestInputRequiredResultSampling asks the client's model a question under the key capital_question.
//
//wink:tool readonly
func TestInputRequiredResultSampling(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	answer := r.Sample("capital_question", wink.SampleRequest{
		Messages:  []wink.SampleMessage{{Role: "user", Content: wink.Text("What is the capital of France?")}},
		MaxTokens: 100,
	})
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("The client's model said: " + answer.Content.Text), nil
}

// rootList names the roots.
func rootList(roots []wink.Root) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(roots)) + " root(s)")
	for i, r := range roots {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(r.URI)
		if r.Name != "" {
			b.WriteString(" (" + r.Name + ")")
		}
	}
	return b.String()
}

// TestInputRequiredResultListRoots asks for the client's roots under the key client_roots.
//
//wink:tool readonly
func TestInputRequiredResultListRoots(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	roots := r.Roots("client_roots")
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("The client has " + rootList(roots.Roots) + "."), nil
}

// TestInputRequiredResultRequestState asks for a confirmation; the answer comes back with the signed
// requestState, which the server checks before the handler runs again.
//
//wink:tool readonly
func TestInputRequiredResultRequestState(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	ok := wink.AskForm(r, "confirm", "Please confirm", WinkFormConfirm)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("state-ok: the requestState was checked; confirmed: " + strconv.FormatBool(ok.Action == wink.ElicitAccept && ok.Value.OK) + "."), nil
}

// TestInputRequiredResultMultipleInputs asks three questions at once: the user's name, a greeting from
// the client's model, and the client's roots.
//
//wink:tool readonly
func TestInputRequiredResultMultipleInputs(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	name := wink.AskForm(r, "user_name", "What is your name?", WinkFormPersonName)
	greeting := r.Sample("greeting", wink.SampleRequest{
		Messages:  []wink.SampleMessage{{Role: "user", Content: wink.Text("Generate a greeting")}},
		MaxTokens: 50,
	})
	roots := r.Roots("client_roots")
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue](hello(name) + " The model's greeting: " + greeting.Content.Text + " The client has " + rootList(roots.Roots) + "."), nil
}

// TestInputRequiredResultMultiRound asks two questions, one round after the other: the second depends
// on nothing but shows a handler that needs several rounds.
//
//wink:tool readonly
func TestInputRequiredResultMultiRound(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	name := wink.AskForm(r, "step1", "Step 1: What is your name?", WinkFormPersonName)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	r = wink.NewRound(tc)
	color := wink.AskForm(r, "step2", "Step 2: What is your favorite color?", WinkFormFavoriteColor)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue](hello(name) + " Your favorite color is " + color.Value.Color + "."), nil
}

// TestInputRequiredResultTamperedState asks for a confirmation; a retry whose requestState was changed
// is refused (-32602) before the handler runs.
//
//wink:tool readonly
func TestInputRequiredResultTamperedState(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	wink.AskForm(r, "confirm", "Please confirm", WinkFormConfirm)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("Confirmed with an untampered requestState."), nil
}

// TestInputRequiredResultCapabilities asks only what the client declared it can answer: a question for
// its model when it declared sampling, a form when it declared elicitation.
//
//wink:tool readonly
func TestInputRequiredResultCapabilities(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	var said *wink.SampleResult
	var name *wink.FormAnswer[PersonName]
	if wink.Declared(tc, wink.CapSampling) {
		said = r.Sample("model_question", wink.SampleRequest{
			Messages:  []wink.SampleMessage{{Role: "user", Content: wink.Text("Say hello.")}},
			MaxTokens: 20,
		})
	}
	if wink.Declared(tc, wink.CapElicitation) {
		name = wink.AskForm(r, "user_name", "What is your name?", WinkFormPersonName)
	}
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	var parts []string
	if said != nil {
		parts = append(parts, "The client's model said: "+said.Content.Text)
	}
	if name != nil {
		parts = append(parts, hello(name))
	}
	if parts == nil {
		return wink.Done[wink.NoValue]("The client declared neither sampling nor elicitation: nothing was asked."), nil
	}
	return wink.Done[wink.NoValue](strings.Join(parts, " ")), nil
}

// InputRequiredPrompt is the prompt test_input_required_result_prompt: its Get asks the user for the
// context it uses before it returns its messages.
func InputRequiredPrompt() mcpserver.Prompt {
	return mcpserver.Prompt{
		Name:        "test_input_required_result_prompt",
		Description: "A prompt that asks the user for its context first",
		Get: func(ctx context.Context, _ map[string]string) ([]mcpserver.PromptMessage, error) {
			r := wink.NewRound(ctx)
			c := wink.AskForm(r, "user_context", "What context should the prompt use?", WinkFormPromptContext)
			if err := r.Wait(); err != nil {
				return nil, err
			}
			text := "Answer without any particular context."
			if c.Action == wink.ElicitAccept {
				text = "Answer in this context: " + c.Value.Context
			}
			return []mcpserver.PromptMessage{{Role: "user", Content: wink.Text(text)}}, nil
		},
	}
}
