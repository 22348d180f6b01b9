package mcpserver_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/internal/clienttest"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

func resourceOptions(fs vfs.Filesystem, poll time.Duration) []mcpserver.Option {
	return []mcpserver.Option{
		mcpserver.WithResource(mcpserver.Resource{URI: "test://static-text", Name: "static-text", MIMEType: "text/plain",
			Read: func(context.Context) (wink.Content, error) {
				return wink.EmbeddedResource("", "", "This is the content of the static text resource."), nil
			}}),
		mcpserver.WithResource(mcpserver.Resource{URI: "test://static-binary", Name: "static-binary", MIMEType: "image/png",
			Read: func(context.Context) (wink.Content, error) { return wink.EmbeddedBlob("", "", clienttest.PNG), nil }}),
		mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "data", MIMEType: "application/json",
			Read: func(_ context.Context, uri string, vars map[string]string) (wink.Content, error) {
				return wink.EmbeddedResource(uri, "", `{"id":"`+vars["id"]+`"}`), nil
			},
			Complete: func(_ context.Context, _, _ string, _ map[string]string) ([]string, error) {
				return []string{"123", "124", "200"}, nil
			},
		}),
		mcpserver.WithWorkspace(fs, mcpserver.WorkspaceOptions{Poll: poll}),
	}
}

func workspaceFS(t *testing.T) *vfs.Memory {
	t.Helper()
	fs := vfs.NewMemory()
	for p, c := range map[string]string{"README.md": "# Hi\n", "src/main.go": "package main\n", "img/dot.png": string(clienttest.PNG), "a b.txt": "spaced"} {
		if err := fs.Write(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

// TestResourcesThroughTheSDKClient: static text and binary resources, a template with its variable
// substituted, and a workspace's files (listed, read as text or blob by type, paths with spaces escaped);
// unknown URIs are "Resource not found".
func TestResourcesThroughTheSDKClient(t *testing.T) {
	ctx := context.Background()
	cs := connectClientTools(t, "", nil, resourceOptions(workspaceFS(t), -1)...)
	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI+" "+r.MIMEType)
	}
	want := "test://static-binary image/png|test://static-text text/plain|workspace:///README.md text/markdown|workspace:///a%20b.txt text/plain|workspace:///img/dot.png image/png|workspace:///src/main.go text/x-go"
	if got := strings.Join(uris, "|"); got != want {
		t.Errorf("resources:\n got %s\nwant %s", got, want)
	}
	tl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tl.ResourceTemplates) != 2 {
		t.Fatalf("templates: %v %+v", err, tl)
	}

	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("%s: %v %+v", uri, err, res)
		}
		return res.Contents[0]
	}
	if c := read("test://static-text"); c.URI != "test://static-text" || c.MIMEType != "text/plain" || c.Text != "This is the content of the static text resource." {
		t.Errorf("static text: %+v", c)
	}
	if c := read("test://static-binary"); c.MIMEType != "image/png" || !bytes.Equal(c.Blob, clienttest.PNG) {
		t.Errorf("static binary: %+v", c)
	}
	if c := read("test://template/123/data"); c.URI != "test://template/123/data" || c.MIMEType != "application/json" || c.Text != `{"id":"123"}` {
		t.Errorf("template: %+v", c)
	}
	if c := read("workspace:///src/main.go"); c.Text != "package main\n" || c.Blob != nil {
		t.Errorf("workspace text: %+v", c)
	}
	if c := read("workspace:///img/dot.png"); c.Text != "" || !bytes.Equal(c.Blob, clienttest.PNG) || c.MIMEType != "image/png" {
		t.Errorf("workspace blob: %+v", c)
	}
	if c := read("workspace:///a%20b.txt"); c.Text != "spaced" {
		t.Errorf("escaped path: %+v", c)
	}
	for _, uri := range []string{"workspace:///nope.txt", "workspace:///src", "workspace:///../etc/passwd", "test://unknown"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "Resource not found") {
			t.Errorf("%s: %v", uri, err)
		}
	}
}

// TestCompletionOfTemplateVariables: a template's completer and the workspace's paths, by prefix.
func TestCompletionOfTemplateVariables(t *testing.T) {
	ctx := context.Background()
	cs := connectClientTools(t, "", nil, resourceOptions(workspaceFS(t), -1)...)
	complete := func(uri, arg, value string) []string {
		t.Helper()
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: uri}, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			t.Fatalf("%s %s: %v", uri, arg, err)
		}
		return res.Completion.Values
	}
	if got := complete("test://template/{id}/data", "id", "12"); strings.Join(got, ",") != "123,124" {
		t.Errorf("id: %q", got)
	}
	if got := complete("workspace:///{+path}", "path", "s"); strings.Join(got, ",") != "src/main.go" {
		t.Errorf("path: %q", got)
	}
	if _, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "test://template/{id}/data"}, Argument: mcp.CompleteParamsArgument{Name: "nope"}}); err == nil {
		t.Error("unknown variable completed")
	}
}

// TestSubscriptionsNotifyOnChange: a client subscribed to a workspace file is told when its content
// changes, whether a tool call changed it (checked after the call) or something else did (the poll);
// not after it unsubscribed, and not for files it did not subscribe to.
func TestSubscriptionsNotifyOnChange(t *testing.T) {
	ctx := context.Background()
	fs := workspaceFS(t)
	var got received
	cs := connectClientTools(t, "2025-11-25", &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		got.add(req.Params.URI)
	}}, resourceOptions(fs, 20*time.Millisecond)...)
	seen := got.wait
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "workspace:///README.md"}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Write("src/main.go", []byte("package other\n")); err != nil { // not subscribed
		t.Fatal(err)
	}
	if err := fs.Write("README.md", []byte("# Changed\n")); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "chatty", map[string]any{})
	if g := seen(1); strings.Join(g, ",") != "workspace:///README.md" {
		t.Fatalf("after a change: %q", g)
	}
	if err := fs.Write("README.md", []byte("# Again\n")); err != nil {
		t.Fatal(err)
	}
	if g := seen(2); len(g) != 2 || g[1] != "workspace:///README.md" {
		t.Fatalf("after a second change: %q", g)
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "workspace:///README.md"}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Write("README.md", []byte("# Unwatched\n")); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "chatty", map[string]any{})
	time.Sleep(100 * time.Millisecond) // five polls
	if g := seen(0); len(g) != 2 {
		t.Fatalf("after unsubscribing: %q", g)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://static-text"}); err != nil {
		t.Errorf("subscribing to a static resource: %v", err)
	}
}

// TestExtrasRefuseBadDeclarations: New reports a template it cannot match, a resource without a Read, a
// duplicate prompt and a nil filesystem.
func TestExtrasRefuseBadDeclarations(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(clienttest.WinkTools())}
	read := func(context.Context, string, map[string]string) (wink.Content, error) { return wink.Content{}, nil }
	get := func(context.Context, map[string]string) ([]mcpserver.PromptMessage, error) { return nil, nil }
	for want, opt := range map[string]mcpserver.Option{
		`expression {?q} is not supported`:          mcpserver.WithResourceTemplate(mcpserver.ResourceTemplate{URITemplate: "test://x{?q}", Name: "x", Read: read}),
		`a resource needs a URI, a Name and a Read`: mcpserver.WithResource(mcpserver.Resource{URI: "test://x", Name: "x"}),
		`is not an absolute URI`:                    mcpserver.WithResource(mcpserver.Resource{URI: "x", Name: "x", Read: func(context.Context) (wink.Content, error) { return wink.Content{}, nil }}),
		`WithWorkspace: nil filesystem`:             mcpserver.WithWorkspace(nil, mcpserver.WorkspaceOptions{}),
	} {
		if _, err := mcpserver.New(d, opt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	p := mcpserver.Prompt{Name: "p", Get: get}
	if _, err := mcpserver.New(d, mcpserver.WithPrompt(p), mcpserver.WithPrompt(p)); err == nil || !strings.Contains(err.Error(), `two prompts are named "p"`) {
		t.Errorf("duplicate prompt: %v", err)
	}
}
