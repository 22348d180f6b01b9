// Package fleet is the example of a fleet of MCP workers sharing one PostgreSQL database (make
// demo-fleet, example/cmd/fleet): three worker processes serve the same tools over stateless
// streamable HTTP, so any request may land on any worker, and they share
//
//   - the conversations' sessions: a request carrying the X-Wink-Session header (SessionHeader) is
//     served with the session of that id, opened from the session store; the Notes slice has a codec,
//     so what one worker wrote, the next one reads;
//   - the idempotency ledger: pay is idempotent on its invoice, so paying one invoice on every worker
//     makes one payment and the other workers replay its receipt.
//
// Run drives the demo: it starts a throwaway cluster, the workers (through a Spawn the caller
// provides, so the same flow runs from the command and from its test), and a client built on the
// official MCP Go SDK, then checks what it printed.
package fleet
