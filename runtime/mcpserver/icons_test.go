package mcpserver_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/wink"
)

// TestIconsReachTheClient: icons given for the server, a tool, a prompt, a resource and a template are
// what the official Go SDK client reads in the initialize result and the four lists; tools without icons
// are listed without them.
func TestIconsReachTheClient(t *testing.T) {
	png := mcpserver.Icon{Src: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: "light"}
	svg := mcpserver.Icon{Src: "data:image/svg+xml;base64,PHN2Zy8+", Sizes: []string{"any"}, Theme: "dark"}
	want := []mcp.Icon{
		{Source: png.Src, MIMEType: png.MIMEType, Sizes: png.Sizes, Theme: mcp.IconThemeLight},
		{Source: svg.Src, Sizes: svg.Sizes, Theme: mcp.IconThemeDark},
	}
	read := func(context.Context) (wink.Content, error) {
		return wink.EmbeddedResource("test://r", "text/plain", "r"), nil
	}
	cs := overHTTP(t, testDispatcher(t),
		mcpserver.WithIcons(png, svg),
		mcpserver.WithToolIcons(map[string][]mcpserver.Icon{"search_docs": {png, svg}}),
		mcpserver.WithPrompt(mcpserver.Prompt{Name: "p", Icons: []mcpserver.Icon{png, svg},
			Get: func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) { return nil, nil }}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://r", Name: "r", Icons: []mcpserver.Icon{png, svg}, Read: read}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://t/{id}", Name: "t", Icons: []mcpserver.Icon{png, svg},
			Read: func(context.Context, string, map[string]string) (wink.Content, error) { return wink.Content{}, nil }}),
	)
	ctx := context.Background()
	check := func(what string, got []mcp.Icon) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: icons %+v, want %+v", what, got, want)
		}
	}
	check("server", cs.InitializeResult().ServerInfo.Icons)
	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, tool := range tl.Tools {
		if tool.Name == "search_docs" {
			seen = true
			check("tool", tool.Icons)
		} else if tool.Icons != nil {
			t.Errorf("tool %s has icons %+v, none were given", tool.Name, tool.Icons)
		}
	}
	if !seen {
		t.Fatal("search_docs is not listed")
	}
	pl, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(pl.Prompts) != 1 {
		t.Fatalf("prompts %+v, %v", pl, err)
	}
	check("prompt", pl.Prompts[0].Icons)
	rl, err := cs.ListResources(ctx, nil)
	if err != nil || len(rl.Resources) != 1 {
		t.Fatalf("resources %+v, %v", rl, err)
	}
	check("resource", rl.Resources[0].Icons)
	tpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tpl.ResourceTemplates) != 1 {
		t.Fatalf("templates %+v, %v", tpl, err)
	}
	check("template", tpl.ResourceTemplates[0].Icons)
}

// TestIconsAreCheckedWhenTheServerIsMade: an icon a client should not fetch (plain http, credentials in
// the URL, a data URI of something other than an image, a relative URL), a theme or size outside the
// specification's, and icons for a tool the registry does not hold are refused, every problem named.
func TestIconsAreCheckedWhenTheServerIsMade(t *testing.T) {
	get := func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) { return nil, nil }
	for _, c := range []struct {
		name string
		opt  mcpserver.Option
		want []string
	}{
		{"server", mcpserver.WithIcons(
			mcpserver.Icon{Src: "http://example.com/i.png"},
			mcpserver.Icon{Src: "https://user:pw@example.com/i.png"},
			mcpserver.Icon{Src: "data:text/html;base64,PGI+"},
			mcpserver.Icon{Src: "/i.png"},
			mcpserver.Icon{Src: "https://example.com/i.png", Theme: "blue", Sizes: []string{"big", "48"}},
		), []string{"server: icon 0: src \"http://example.com/i.png\"", "icon 1: src", "icon 2: src \"data:text/html;base64,PGI+\" is a data URI but not of an image",
			"icon 3: src \"/i.png\"", `icon 4: theme "blue"`, `icon 4: size "big"`, `icon 4: size "48"`}},
		{"tool", mcpserver.WithToolIcons(map[string][]mcpserver.Icon{"search_docs": {{Src: "ftp://x/i.png"}}, "no_such_tool": nil, "another": nil}),
			[]string{`tool "search_docs": icon 0: src "ftp://x/i.png"`, `WithToolIcons names "another", which is not a tool`, `WithToolIcons names "no_such_tool"`}},
		{"prompt", mcpserver.WithPrompt(mcpserver.Prompt{Name: "p", Get: get, Icons: []mcpserver.Icon{{Src: "javascript:alert(1)"}}}),
			[]string{`prompt "p": icon 0: src "javascript:alert(1)"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := mcpserver.HTTPHandler(testDispatcher(t), c.opt)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not say %q", err, w)
				}
			}
		})
	}
}
