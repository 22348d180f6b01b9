package auth_test

import (
	"context"
	"net/http"

	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/mcpserver/auth"
	"github.com/winkgen/wink/runtime/mcpserver/internal/authtest"
	"github.com/winkgen/wink/runtime/resources"
	"github.com/winkgen/wink/runtime/wink"
)

// OrdersAPI is the resource through which tools reach the orders API.
var OrdersAPI = resources.NewKey[*auth.Exchanger]("OrdersAPI")

// listOrders is a tool handler that calls the orders API for its caller: it never sees the caller's
// token, only a token the authorization server issued for the orders API.
func listOrders(tc *wink.ToolContext) (string, error) {
	ex, err := resources.Get(tc.Resources(), OrdersAPI)
	if err != nil {
		return "", err
	}
	tok, err := ex.Token(tc, "orders:read") // cached per caller and scopes until shortly before it expires
	if err != nil {
		return "", err // says why: invalid_grant, invalid_client, ... (auth.ExchangeError)
	}
	req, err := http.NewRequestWithContext(tc, http.MethodGet, "https://orders.example.com/api/orders", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

// ExampleExchanger: a resource server whose tools call an upstream API on behalf of their caller get their
// own credential for it, by RFC 8693 token exchange at the authorization server, as a resource of the
// dispatcher.
func ExampleExchanger() {
	ex, err := auth.NewExchanger(auth.ExchangeConfig{
		Issuer:       "https://auth.example.com",       // the issuer of the inbound tokens
		TokenURL:     "https://auth.example.com/token", // its token endpoint: the only place the inbound token is sent
		ClientID:     "mcp-server",                     // this server's client there
		ClientSecret: "secret",                         // (from the environment or a secret store)
		Audience:     "https://orders.example.com",     // the upstream API
		Resource:     "https://orders.example.com/api", // (RFC 8707, if the authorization server wants it)
		Scopes:       []string{"orders:read"},          // asked for when Token is given none
	})
	if err != nil {
		panic(err)
	}
	reg, err := resources.NewRegistry(resources.Instance(OrdersAPI, ex))
	if err != nil {
		panic(err)
	}
	tools := wink.MustRegistry(authtest.WinkTools()) // your generated WinkTools(), with handlers like listOrders
	h, err := mcpserver.HTTPHandler(&wink.Dispatcher{Registry: tools},
		// Each client gets its own resource context; they share the Exchanger, which keeps callers apart.
		mcpserver.WithSessions(func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
			rc, err := reg.Open()
			if err != nil {
				return nil, nil, err
			}
			return &wink.Dispatcher{Registry: tools, Resources: rc}, func() { rc.Close() }, nil
		}),
		mcpserver.WithAuth(auth.Config{Issuer: "https://auth.example.com", Resource: "https://mcp.example.com/mcp"}))
	if err != nil {
		panic(err)
	}
	_ = h // http.ListenAndServe(addr, h)
	_ = listOrders
	// Output:
}
