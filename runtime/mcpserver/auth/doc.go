// Package auth makes an MCP server an OAuth 2.1 resource server, as the MCP
// authorization specification (2025-06-18, 2026-07-28) requires of a server
// reached over HTTP. mcpserver.WithAuth(auth.Config{...}) turns it on for
// mcpserver.HTTPHandler; New and Server.Handler serve any other handler.
//
// # What a client sees
//
//   - Protected Resource Metadata (RFC 9728) at the well-known URI of the
//     resource: for Config.Resource "https://mcp.example.com/mcp", at
//     /.well-known/oauth-protected-resource/mcp (and at the root form
//     /.well-known/oauth-protected-resource, which clients try next), naming
//     resource, authorization_servers, scopes_supported (Config.Scopes, and
//     through WithAuth every scope a tool declares) and
//     bearer_methods_supported ["header"]. The handler must be mounted at the
//     root of the resource's origin for clients to find it; otherwise mount
//     Server.MetadataHandler there.
//   - A request without a token: 401 with
//     WWW-Authenticate: Bearer resource_metadata="<metadata URL>".
//   - A token that is malformed, badly signed, expired, not yet valid,
//     issued by another issuer or for another audience: 401 with
//     WWW-Authenticate: Bearer error="invalid_token",
//     error_description="...", resource_metadata="<metadata URL>".
//   - A tools/call of a tool whose scopes (//wink:tool scopes=...) the token
//     lacks: 403 with WWW-Authenticate: Bearer error="insufficient_scope",
//     scope="<every scope the tool needs>", resource_metadata="<metadata URL>"
//     (one challenge, so a client steps up once). Where no status can be
//     carried (a JSON-RPC batch, stdio, the loop, a durable run), the
//     dispatcher refuses the call before decoding its arguments with a tool
//     error naming the missing scopes (wink.ScopeError).
//   - tools/list (through WithAuth) shows each caller only the tools its
//     token permits, with cacheScope "private". With Config.HideTools a
//     tools/call of a tool the token lacks scopes for is answered exactly as
//     a call of a tool that does not exist (the SDK's JSON-RPC error
//     `unknown tool "x"`), not with 403.
//   - Prompts, resources and resource templates declaring Scopes
//     (mcpserver.Prompt.Scopes, Resource.Scopes, ResourceTemplate.Scopes)
//     are treated alike: prompts/list, resources/list and
//     resources/templates/list show a caller only what its token permits
//     (private); prompts/get and resources/read of the rest get the same 403
//     step-up challenge, or, with HideTools, exactly the answer for a prompt
//     or resource that does not exist.
//   - The authorization server being unreachable when its keys are needed:
//     503, the token is neither accepted nor called invalid.
//
// A tool that declares no scopes is callable by any authenticated caller: a
// read-only tool is not thereby a public one.
//
// # Verification
//
// A JWT access token (RFC 9068) is verified with the keys of the
// authorization server's JWKS: its jwks_uri is discovered from the issuer's
// metadata (RFC 8414 /.well-known/oauth-authorization-server, then OpenID
// Connect /.well-known/openid-configuration; the document's issuer must equal
// Config.Issuer exactly). Guarantees and bounds:
//
//   - Only asymmetric algorithms are accepted (RS*, PS*, ES*, EdDSA;
//     Config.Algorithms narrows them): alg "none" and HMAC are refused
//     before any key is looked at, so a public key can never serve as an
//     HMAC secret.
//   - iss must equal Config.Issuer; aud must contain Config.Resource (RFC 8707
//     resource indicator) unless Config.AnyAudience; exp is required; exp,
//     nbf and iat are compared with a clock skew of Config.ClockSkew (default
//     30 s, at most 5 min).
//   - Keys are cached. A token naming a kid the cache lacks (a rotation)
//     refetches the JWKS, at most once per Config.MinRefresh (default 10 s)
//     whatever the number of such tokens; the cache is otherwise refetched
//     when older than Config.MaxKeyAge (default 1 h). A fetch is bounded by
//     Config.FetchTimeout (default 10 s) and 1 MiB; verification with cached
//     keys never waits for a fetch.
//   - Verified tokens are cached (Config.TokenCacheSize, default 4096
//     tokens; negative: off), keyed by the token's SHA-256, used until its
//     exp and never past it, and only while the key set that verified it is
//     current: a key withdrawn from the JWKS stops vouching for cached tokens
//     once the keys are fetched again. A cached token costs a hash and a map
//     lookup instead of a signature check (BenchmarkVerify: about 45 times
//     faster, 1 allocation instead of 146). Introspected tokens are not
//     cached, so a revocation is seen at once. cache.go has the details.
//
// An opaque token is verified by token introspection (RFC 7662) when
// Config.Introspection is set: the endpoint is Introspection.URL or the
// issuer metadata's introspection_endpoint, authenticated with the client's
// credentials (HTTP Basic). The response must say active, and is held to the
// same issuer, audience and time checks as a JWT's claims (an introspection
// response without aud is refused unless Config.AnyAudience).
//
// # The principal
//
// A verified token becomes a *wink.Principal (subject, client id, issuer,
// scopes, claims) in the context of every tool call of the request:
// handlers read it with ToolContext.Principal() or wink.PrincipalFrom(ctx),
// and the dispatcher checks each tool's scopes against it. The raw token is
// kept nowhere a handler can reach and is never forwarded: a handler that
// must call an upstream API obtains its own credential for that API (next
// section).
//
// The verified token is also given to the MCP SDK (its auth.TokenInfo, with
// the subject as UserID), which binds each MCP session to the user that
// opened it.
//
// # Calling an upstream API: token exchange
//
// A handler never sends the caller's token upstream (it would let the
// upstream replay it here, and the token was not issued for it). It gets a
// token of its own for that API from an Exchanger, bound as a resource of
// the dispatcher (resources.Instance; ExampleExchanger shows the whole
// server):
//
//	ex, err := resources.Get(tc.Resources(), OrdersAPI)
//	tok, err := ex.Token(tc, "orders:read")
//	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
//
// Exchanger.Token performs an RFC 8693 token exchange at the authorization
// server's token endpoint (ExchangeConfig.TokenURL; when it is not set, the
// token_endpoint of the issuer's metadata, discovered on the first Token at
// RFC 8414's /.well-known/oauth-authorization-server, then OpenID Connect's
// /.well-known/openid-configuration, and kept; the document must name
// ExchangeConfig.Issuer, and a failed discovery is retried after 5 s): a form POST with
// grant_type urn:ietf:params:oauth:grant-type:token-exchange, the caller's
// token as subject_token (subject_token_type and requested_token_type
// urn:ietf:params:oauth:token-type:access_token), ExchangeConfig.Audience
// as audience and Resource as resource (RFC 8707), the scopes asked for as
// scope, and this server's client credentials as HTTP Basic (RFC 6749
// §2.3.1). What it guarantees:
//
//   - The inbound token is sent nowhere else. Server.Handler keeps it in an
//     unexported context value (and the TokenInfo it gives the SDK, under an
//     unexported type) that only an Exchanger reads; wink.Principal, its
//     Claims and every other public API leave it out. An Exchanger sends it
//     only to its TokenURL, follows no redirect (with the default
//     HTTPClient), and only for a token its ExchangeConfig.Issuer issued.
//   - The answer is a token for that upstream only (an ExchangedToken); it
//     is reused for the same inbound token and scopes until
//     ExchangeConfig.Skew (default 30 s) before its expiry, at most
//     ExchangeConfig.CacheSize tokens (default DefaultExchangeCacheSize). An
//     answer without expires_in is not reused.
//   - One request per caller and scopes at a time: callers asking for the
//     same inbound token and scopes while an exchange for them is under way
//     wait for it (or for their own context) and share its answer. When the
//     caller that made the request gives up (its context ends), the others
//     ask again rather than fail with its error.
//   - Errors say what to fix: the authorization server's refusal is an
//     *ExchangeError (errors.Is ErrExchangeRefused) carrying its code
//     (invalid_grant: the caller's token was not accepted for exchange;
//     invalid_client: this server's credentials; invalid_target,
//     invalid_scope); no caller to act for (stdio, a principal put in by
//     hand, a durable run resumed without its request) is ErrNoInboundToken,
//     and nothing is sent; an unreachable endpoint, or metadata that cannot
//     be discovered, is ErrUnavailable. Each request is bounded by
//     ExchangeConfig.Timeout (default 10 s) and 1 MiB.
//
// # Durable runs have the caller, not the caller's token
//
// A durable run (runtime/durable) stores its caller's principal and
// restores it on whichever worker takes a step, but never the token: it is
// a bearer secret, valid for this resource server only, and a store or
// history holding it would hand it to anyone who reads them. A step that
// runs outside the request that started the run (a worker's Work, a
// takeover after a crash, a restart, a task) therefore has a principal and
// no inbound token, and Exchanger.Token fails there with ErrNoInboundToken
// and a text saying so, sending nothing. To call an upstream API for the
// caller from a durable run, either exchange while the caller's request is
// live (before starting the run, or in a step driven with the request's
// context, before the run's first checkpoint) and keep what the upstream
// answered in the run's messages, or give the work done later a credential
// of the server's own for that upstream (an OAuth client-credentials
// token), acting for the caller by the principal the run restores.
//
// The caller's request context carries what Token needs: a ToolContext of a
// call served through mcpserver.WithAuth (mcpserver calls NewContext), or
// the context of a request Server.Handler accepted.
//
// # Library
//
// JOSE is github.com/go-jose/go-jose/v4: the JWS and JWT code the Go OpenID
// Connect client (coreos/go-oidc) is built on, with no dependencies beyond
// the standard library, an explicit algorithm allow-list at parse time (the
// guard against alg confusion), and a maintained threat model. lestrrat-go/jwx
// offers more (a JWK cache) at the cost of a much larger dependency tree;
// go-oidc verifies ID tokens (aud is the client), not access tokens. The
// JWKS cache and refresh bound are written here, on top of go-jose's key
// types; no JOSE primitive is.
//
// Verification (go-jose) and the metadata documents use reflection-based
// JSON: the price of not writing JOSE code. Tool calls themselves are
// unaffected.
package auth
