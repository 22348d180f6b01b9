// Package ratelimit limits how often tools may be called: token buckets server-wide, per caller, and per
// caller and tool, applied by the dispatcher to every call whatever its entry point (an MCP client, the
// agent loop, a durable run, a direct Dispatch), before the call's arguments are read.
//
//	lim, err := ratelimit.New(ratelimit.Limits{
//		Server:       wink.Rate{Count: 1000, Per: time.Second},       // every call together
//		PerPrincipal: wink.Rate{Count: 60, Per: time.Minute, Burst: 10}, // each caller, all tools
//	}, nil) // nil: in memory; pgratelimit.New(ctx, pool): shared by a fleet
//	d := &wink.Dispatcher{Registry: reg, RateLimit: lim}
//	// or, for an MCP server: mcpserver.HTTPHandler(d, mcpserver.WithRateLimit(lim))
//
// # Rates
//
// A wink.Rate is a token bucket: it holds Burst tokens (Count when Burst is 0) and gains Count tokens every
// Per, evenly; each call takes one, and a call that finds none is refused until the next arrives. So a
// caller may make Burst calls at once, then Count per Per for as long as it goes on. A tool declares its
// own rate next to its code,
//
//	//wink:tool rate=10/m burst=3
//
// written rate=<count>/<period> with the period ms, s, m, h or a Go duration (rate=5/10s), and an
// optional burst=<count> (the count when not given). winkgen checks it at generation time (a whole count
// from 1, a period from 1ms to 24h, at most a million calls a second, a burst from 1) and writes it into
// Spec.Rate. Limits.Tools overrides a declared rate by tool name, and Limits.DefaultTool gives tools that
// declare none a rate; the zero Rate is no limit. Nothing is limited by default.
//
// # Keys
//
// The caller is the principal in the call's context (wink.PrincipalFrom: the subject its issuer vouched
// for, set by mcpserver.WithAuth or by wink.WithPrincipal), keyed by issuer and subject (a token without a
// subject by its client id). Calls made without a principal (stdio, a local loop, a server without
// authorization) are one caller, the anonymous one: they share its buckets. A call takes one token from
// each bucket it falls under, the server's, its caller's, and its caller's for the tool, or from none:
// a refused call leaves every bucket as it was. A call refused for bad arguments, by a policy or by its
// handler has still taken its tokens; a call refused for a missing scope takes none (the scope check comes
// first).
//
// # Refusals
//
// A refused call is a failed call (no handler runs): the model reads, for example,
//
//	tool "send_email" was not called: this tool's rate limit for the caller (10/m burst=3) is used up; call it again in 6s or later, with the same arguments
//
// and Outcome.RetryAfter, the event's *wink.RateLimitError (Bound, Rate, RetryAfter; errors.Is
// wink.ErrRateLimited) and an MCP result's _meta (mcpserver.MetaRetryAfter, in seconds) carry the time.
// Over HTTP, mcpserver.WithRateLimit answers a tool call that the server-wide bucket has no token for with
// 429 Too Many Requests and Retry-After, before reading it further.
//
// # Clocks and stores
//
// Memory, the default store, keeps the buckets in the process, on its monotonic clock: exact under any
// number of goroutines, without a lock while a token is taken and without an allocation once a caller's
// buckets exist; a caller whose buckets have refilled is dropped from time to time, so its size follows
// the recent callers. A call is judged at the time its dispatch started when the dispatcher read the
// clock for it anyway (its ToolInvoked event's Time: an MCP server's calls, a dispatcher with a Session
// or Events; see wink.RateLimiterAt), else at the limiter's own reading; either way a call costs at most
// one clock read. A Limiter finds a call's tool rate and caller buckets through small caches keyed by the
// tool descriptor's and the principal's pointers, checked on every use, so a call from a principal seen
// before neither hashes nor locks, and a call carrying the very principal seen before (a session's) does
// not read it again: this relies on wink.Principal's rule that a principal is not modified once it is in
// a context (make a new one instead). Package pgratelimit keeps them in PostgreSQL with the database's clock as the only
// clock, so that a fleet's workers share the limits; each call is one statement there.
//
// A store that cannot decide (its database is down) fails closed: the dispatcher refuses the call by
// returning the store's error from Dispatch (an MCP client gets a JSON-RPC internal error), and nothing
// runs. pgratelimit.Store.FailOpen admits such calls instead, for a fleet that prefers serving without
// limits to not serving.
package ratelimit
