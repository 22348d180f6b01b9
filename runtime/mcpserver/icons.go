package mcpserver

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Icon is an image a client may show beside a tool, a prompt, a resource, a
// resource template or the server itself (MCP 2025-11-25 and later: the
// icons field; older clients ignore it).
//
// Src is checked when the server is made, so that a client is never sent an
// icon it would have to fetch from somewhere unsafe: it must be an https URL
// with a host, or a data URI of an image ("data:image/png;base64,..."). The
// specification lets clients refuse other schemes; winkgen refuses them at
// the source. Theme is "", "light" or "dark"; each of Sizes is "any" or
// WIDTHxHEIGHT ("48x48").
type Icon struct {
	Src      string
	MIMEType string
	Sizes    []string
	Theme    string
}

// WithIcons sets the icons the server reports about itself (serverInfo in
// the initialize result).
func WithIcons(icons ...Icon) Option {
	return func(c *config) { c.icons = append(c.icons[:0:0], icons...) }
}

// WithToolIcons sets the icons listed with tools, by tool name. A name the
// dispatcher's registry does not hold is an error when the server is made,
// as is an icon Icon's rules refuse.
func WithToolIcons(icons map[string][]Icon) Option {
	return func(c *config) { c.toolIcons = icons }
}

// mcpIcons checks icons and converts them; owner names what they belong to
// in the error.
func mcpIcons(owner string, icons []Icon) ([]mcp.Icon, error) {
	if len(icons) == 0 {
		return nil, nil
	}
	out := make([]mcp.Icon, 0, len(icons))
	var errs []error
	for i, ic := range icons {
		where := "mcpserver: " + owner + ": icon " + strconv.Itoa(i) + ": "
		if err := checkIconSrc(ic.Src); err != nil {
			errs = append(errs, errors.New(where+err.Error()))
		}
		switch ic.Theme {
		case "", "light", "dark":
		default:
			errs = append(errs, errors.New(where+"theme "+strconv.Quote(ic.Theme)+` is not "light" or "dark"`))
		}
		for _, s := range ic.Sizes {
			if !validSize(s) {
				errs = append(errs, errors.New(where+"size "+strconv.Quote(s)+` is not "any" or WIDTHxHEIGHT such as "48x48"`))
			}
		}
		out = append(out, mcp.Icon{Source: ic.Src, MIMEType: ic.MIMEType, Sizes: append([]string(nil), ic.Sizes...), Theme: mcp.IconTheme(ic.Theme)})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

func checkIconSrc(src string) error {
	if rest, ok := strings.CutPrefix(src, "data:"); ok {
		meta, data, ok := strings.Cut(rest, ",")
		if !ok || !strings.HasPrefix(meta, "image/") || data == "" {
			return errors.New("src " + short(src) + ` is a data URI but not of an image ("data:image/png;base64,...")`)
		}
		return nil
	}
	u, err := url.Parse(src)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return errors.New("src " + short(src) + " must be an https URL with a host (no credentials) or a data URI of an image")
	}
	return nil
}

func short(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strconv.Quote(s)
}

func validSize(s string) bool {
	if s == "any" {
		return true
	}
	w, h, ok := strings.Cut(s, "x")
	return ok && digits(w) && digits(h)
}

func digits(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
