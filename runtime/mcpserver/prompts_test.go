package mcpserver_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// promptOptions serve a hand-written prompt with image and resource messages and a completer, a section
// with params (and a child with its own), and a prompt of two sections.
func promptOptions(t *testing.T) []mcpserver.Option {
	t.Helper()
	child := prompt.MustSection(prompt.SectionSpec{Key: "style", Title: "Style", Template: "Write in ${tone} tone.",
		Params: []prompt.Param{{Name: "tone", Default: "plain"}}})
	files := prompt.MustSection(prompt.SectionSpec{Key: "files", Title: "Files", Template: "Work in ${root}.",
		Params: []prompt.Param{{Name: "root", Required: true}}, Children: []*prompt.Section{child}})
	intro := prompt.MustSection(prompt.SectionSpec{Key: "intro", Title: "Introduction", Template: "You are ${name}.",
		Params: []prompt.Param{{Name: "name", Required: true}}})
	return []mcpserver.Option{
		mcpserver.WithPrompt(mcpserver.Prompt{
			Name: "describe", Description: "Describe an image and a document.",
			Arguments: []mcpserver.PromptArgument{{Name: "city", Description: "A city.", Required: true}, {Name: "uri"}},
			Get: func(_ context.Context, args map[string]string) ([]mcpserver.PromptMessage, error) {
				return []mcpserver.PromptMessage{
					{Role: "user", Content: wink.Image("image/png", clienttest.PNG)},
					{Role: "user", Content: wink.EmbeddedResource(args["uri"], "text/plain", "About "+args["city"]+".")},
					{Role: "assistant", Content: wink.Text("I will describe " + args["city"] + ".")},
				}, nil
			},
			Complete: func(_ context.Context, arg, _ string, _ map[string]string) ([]string, error) {
				return []string{"paris", "park", "party", "lisbon"}, nil
			},
		}),
		mcpserver.WithPromptSections(files),
		mcpserver.WithPrompts(prompt.Must("agent", intro, files)),
	}
}

// TestPromptsThroughTheSDKClient: prompts are listed with their arguments (section params, required as
// declared), rendered with the arguments given, refuse missing and unknown arguments, and carry image and
// resource blocks.
func TestPromptsThroughTheSDKClient(t *testing.T) {
	ctx := context.Background()
	cs := connectClientTools(t, "", nil, promptOptions(t)...)
	lr, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Prompt{}
	for _, p := range lr.Prompts {
		got[p.Name] = p
	}
	if len(got) != 3 || got["files"] == nil || got["agent"] == nil || got["describe"] == nil {
		t.Fatalf("prompts: %+v", lr.Prompts)
	}
	if f := got["files"]; f.Title != "Files" || len(f.Arguments) != 2 || f.Arguments[0].Name != "root" || !f.Arguments[0].Required ||
		f.Arguments[1].Name != "tone" || f.Arguments[1].Required || f.Arguments[1].Description != `Value of ${tone} in "Style"; default "plain".` {
		t.Errorf("files: %+v %+v %+v", f, f.Arguments[0], f.Arguments[1])
	}
	if a := got["agent"]; len(a.Arguments) != 3 || a.Arguments[0].Name != "name" || a.Description != `The agent's prompt "agent": Introduction, Files.` {
		t.Errorf("agent: %+v", a)
	}

	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "agent", Arguments: map[string]string{"name": "Wink", "root": "/src"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "## Introduction\n\nYou are Wink.\n\n## Files\n\nWork in /src.\n\n### Style\n\nWrite in plain tone.\n"
	if len(res.Messages) != 1 || res.Messages[0].Role != "user" || res.Messages[0].Content.(*mcp.TextContent).Text != want {
		t.Errorf("agent rendered: %#v", res.Messages[0].Content)
	}
	for _, c := range []struct {
		args map[string]string
		want string
	}{
		{map[string]string{"tone": "dry"}, `prompt "files": missing required argument "root"`},
		{map[string]string{"root": "/", "rooot": "x"}, `prompt "files": unknown argument "rooot"`},
	} {
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "files", Arguments: c.args}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}

	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "describe", Arguments: map[string]string{"city": "Lisbon", "uri": "test://lisbon"}})
	if err != nil || len(res.Messages) != 3 {
		t.Fatalf("describe: %v %+v", err, res)
	}
	if ic, ok := res.Messages[0].Content.(*mcp.ImageContent); !ok || !bytes.Equal(ic.Data, clienttest.PNG) {
		t.Errorf("image message: %#v", res.Messages[0].Content)
	}
	if er, ok := res.Messages[1].Content.(*mcp.EmbeddedResource); !ok || er.Resource.URI != "test://lisbon" || er.Resource.Text != "About Lisbon." {
		t.Errorf("resource message: %#v", res.Messages[1].Content)
	}
	if res.Messages[2].Role != "assistant" {
		t.Errorf("role: %q", res.Messages[2].Role)
	}
}

// TestCompletionOfPromptArguments: completion/complete filters a prompt's completer by the prefix typed;
// a section param completes to its default; unknown prompts and arguments are errors.
func TestCompletionOfPromptArguments(t *testing.T) {
	ctx := context.Background()
	cs := connectClientTools(t, "", nil, promptOptions(t)...)
	complete := func(name, arg, value string) (*mcp.CompleteResult, error) {
		return cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: name}, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
	}
	res, err := complete("describe", "city", "par")
	if err != nil || strings.Join(res.Completion.Values, ",") != "paris,park,party" {
		t.Fatalf("describe: %v %+v", err, res)
	}
	res, err = complete("files", "tone", "")
	if err != nil || strings.Join(res.Completion.Values, ",") != "plain" {
		t.Fatalf("files tone: %v %+v", err, res)
	}
	res, err = complete("files", "root", "")
	if err != nil || res.Completion.Values == nil || len(res.Completion.Values) != 0 {
		t.Fatalf("files root: %v %+v", err, res)
	}
	if _, err := complete("nope", "x", ""); err == nil || !strings.Contains(err.Error(), `no prompt named "nope"`) {
		t.Errorf("unknown prompt: %v", err)
	}
	if _, err := complete("files", "x", ""); err == nil || !strings.Contains(err.Error(), `prompt "files" has no argument "x"`) {
		t.Errorf("unknown argument: %v", err)
	}
}
