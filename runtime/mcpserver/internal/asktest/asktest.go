// Package asktest holds the tools of mcpserver's tests of wink.Round: questions named by the handler,
// several at once, roots.
package asktest

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/winkgen/wink/runtime/wink"
)

// Runs counts the runs of survey's handler.
var Runs atomic.Int32

// Name is a person's name.
//
//wink:form
type Name struct {
	// The name.
	Name string `json:"name" wink:"minLength=1,maxLength=50"`
}

// Color is a favorite color.
//
//wink:form
type Color struct {
	// The color.
	Color string `json:"color" wink:"enum=red|green|blue"`
}

// Survey asks the user's name, a greeting from the client's model and the client's roots in one round,
// then the user's favorite color in a second round.
//
//wink:tool
func Survey(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	Runs.Add(1)
	r := wink.NewRound(tc)
	name := wink.AskForm(r, "user_name", "What is your name?", WinkFormName)
	greeting := r.Sample("greeting", wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("Write a greeting.")}}, MaxTokens: 50})
	roots := r.Roots("client_roots")
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	r = wink.NewRound(tc)
	color := wink.AskForm(r, "color", "What is your favorite color?", WinkFormColor)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	var uris []string
	for _, root := range roots.Roots {
		uris = append(uris, root.URI)
	}
	return wink.Done[wink.NoValue](name.Value.Name + " likes " + color.Value.Color + "; the model says " + strconv.Quote(greeting.Content.Text) + "; roots: " + strings.Join(uris, ",")), nil
}

// Reuse asks the key "k" as a form, then as a question for the client's model: a key names one question.
//
//wink:tool
func Reuse(tc *wink.ToolContext) (wink.ToolResult[wink.NoValue], error) {
	r := wink.NewRound(tc)
	wink.AskForm(r, "k", "Name?", WinkFormName)
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	r = wink.NewRound(tc)
	r.Sample("k", wink.SampleRequest{Messages: []wink.SampleMessage{{Role: "user", Content: wink.Text("Hi")}}})
	if err := r.Wait(); err != nil {
		return wink.ToolResult[wink.NoValue]{}, err
	}
	return wink.Done[wink.NoValue]("unreachable"), nil
}
