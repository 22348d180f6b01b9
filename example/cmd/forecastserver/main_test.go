package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestForecastServerNamesItself builds the README's server and talks to it over stdio with the official
// SDK's client: it introduces itself by the name WithImplementation gives, and serves get_forecast.
func TestForecastServerNamesItself(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "forecastserver")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "-stdio")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if info := cs.InitializeResult().ServerInfo; info.Name != "forecast" || info.Version != "v1.0.0" {
		t.Errorf("the server calls itself %s %s", info.Name, info.Version)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_forecast", Arguments: map[string]any{"city": "Lisbon", "days": 2}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `{"highs":[21.5,21.5]}`) {
		t.Errorf("the call answered %q", text)
	}
}
