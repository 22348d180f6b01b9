package mcpserver

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winkgen/wink/runtime/wink"
)

// Revisions are the protocol revisions ListedTools states tools for, newest first: those the SDK's
// server speaks.
func Revisions() []string { return mcp.SupportedProtocolVersions() }

// ListedTools returns the tools array a server made by New for reg sends in its tools/list result at
// protocol revision revision ("" is the newest of Revisions): the same values, built by the same code,
// in the registry's order. It is what a server made without options shows every client; WithToolIcons
// adds icons, WithToolSearch replaces the deferred tools by the search tool, and WithAuth shows each
// caller only the tools its scopes allow. An error names a tool the server would refuse, or a revision it does not speak.
func ListedTools(reg *wink.Registry, revision string) ([]*mcp.Tool, error) {
	revs := Revisions()
	if revision == "" {
		revision = revs[0]
	}
	if !slices.Contains(revs, revision) {
		return nil, errors.New("mcpserver: unknown protocol revision " + strconv.Quote(revision) + "; use one of " + strings.Join(revs, ", "))
	}
	sh := shapeOf(revision)
	var out []*mcp.Tool
	var errs []error
	for _, t := range reg.Tools() {
		mt, err := mcpTool(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lt, err := listedTools(t, mt)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, lt.byShape[sh])
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
