package mcpserver

import (
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestLifetimeOptionsReachTheTransports(t *testing.T) {
	conf := func(opts ...Option) *config {
		c := &config{}
		for _, o := range opts {
			o(c)
		}
		return c
	}
	tests := []struct {
		name     string
		opts     []Option
		timeout  time.Duration
		body     int64
		line     int
		stateful bool
	}{
		{"defaults", nil, DefaultSessionTimeout, 0, DefaultMaxRequestBytes, false},
		{"the SDK's options are kept", []Option{WithHTTPOptions(&mcp.StreamableHTTPOptions{SessionTimeout: time.Minute, MaxRequestBodyBytes: 10, Stateless: true})},
			time.Minute, 10, DefaultMaxRequestBytes, true},
		{"ours win", []Option{WithSessionTimeout(time.Second), WithMaxRequestBytes(100), WithHTTPOptions(&mcp.StreamableHTTPOptions{SessionTimeout: time.Minute, MaxRequestBodyBytes: 10})},
			time.Second, 100, 100, false},
		{"never and unlimited", []Option{WithSessionTimeout(-1), WithMaxRequestBytes(-1)}, -1, -1, 1 << 62, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := conf(tc.opts...)
			o := c.httpOptions()
			if o.SessionTimeout != tc.timeout || o.MaxRequestBodyBytes != tc.body || o.Stateless != tc.stateful {
				t.Errorf("HTTP options: timeout %v, body limit %d, stateless %v; want %v, %d, %v", o.SessionTimeout, o.MaxRequestBodyBytes, o.Stateless, tc.timeout, tc.body, tc.stateful)
			}
			if got := c.maxLineBytes(); got != tc.line {
				t.Errorf("stdio line limit %d, want %d", got, tc.line)
			}
			if c.httpOpts != nil && c.httpOpts.SessionTimeout == tc.timeout && tc.timeout == time.Second {
				t.Errorf("the caller's StreamableHTTPOptions were modified")
			}
		})
	}
}
