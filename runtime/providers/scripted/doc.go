// Package scripted is a loop.Provider that replays a transcript file: the model's turns are written down
// in advance, so a demo or a test runs the real loop, dispatcher and tools with no model and no network,
// and checks that each tool result is what the script expects.
//
// # Transcript format
//
// A line-oriented text file. Blank lines and lines starting with # are ignored; leading blanks are
// ignored; every other line is a directive, a keyword followed by one space and its argument:
//
//	tools a, b, c        the exact tool names the loop must offer, in order (optional; once, before the turns)
//	turn Caption         starts a model turn; the caption is for readers and never sent to the loop
//	text Some words.     a line of the model's text (several text lines are joined with newlines)
//	call name {"raw":1}  a tool call: the name, then the raw arguments text, byte for byte (may be empty
//	                     or invalid JSON: the dispatcher answers it); ids are call_1, call_2, ... in order
//	expect ok|fail|replayed [substring]
//	                     an expectation on the previous call's result: success (replayed or not), failure,
//	                     or a success replayed from the idempotency ledger; the output must contain substring
//	usage 120 35         the input and output tokens the response reports (default 0 0)
//	stop reason          the provider stop reason reported (default "tool_calls" with calls, else "stop")
//
// # Decisions where the design was silent
//
//   - Expectations of a turn's calls are checked when the loop asks for the next turn (the results are in
//     the request by then), so a script that stops matching fails at once with the file and line of the
//     expectation; Provider.Verify checks what no later request can show (the last turn's results, turns
//     never played).
//   - The tool list is compared by name and order only: schemas are the generator's business.
//   - The provider is strict: asking for a turn past the end is an error, not an empty answer, so a loop
//     that goes on longer than the script is noticed.
//   - Text format rather than JSON: raw arguments are written exactly as a model would send them, without
//     a second layer of escaping.
package scripted
