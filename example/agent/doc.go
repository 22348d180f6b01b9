// Package agent is the example agent that `make demo` runs: a documentation maintainer with the example
// tools (example/tools), the planning and files suites (runtime/suites), and its own publish_docs tool,
// put together as a prompt of sections and run by the agent loop (runtime/loop) against a scripted
// model (Transcript) or, with WINK_DEMO_LIVE=1, a real OpenAI-compatible endpoint.
//
// Decisions:
//   - The prompt is four sections: role, planning (ReAct), files (read-before-write on) and the
//     documentation tools (example/tools plus publish_docs). Its rendered markdown is the system prompt
//     and its tools are exactly what the model is offered, live or scripted; the scripted transcript
//     pins the list with its "tools" line, so a tool added to a section fails the demo until the
//     transcript is updated.
//   - publish_docs writes the site index before checking the pages on purpose: it is the demo's visible
//     rollback (a failed publish leaves no site/index.md).
//   - Each run gets a fresh in-memory workspace, a session with the fixed id "demo" (so idempotency keys
//     are reproducible), an in-memory ledger and a token budget; tool calls run in order (the tools
//     share the session and the workspace, so the loop's Parallel stays off).
package agent
