// Package policy holds winkgen's built-in tool policies ([wink.Policy]):
// [SequentialDependency], [ReadBeforeWrite], [RequireApproval], and the
// compositions [AllOf] and [AnyOf]. Give them to a dispatcher as prompt
// policies ([wink.Dispatcher].Policies) or per section
// ([wink.Dispatcher].SectionPolicies).
//
// Texts the model sees (product text, tested verbatim, WINK's wording):
//
//	Tool 'deploy' requires: build, test
//	File 'a.txt' must be read before overwriting.
//	- Call read_file on 'a.txt' first.
//
// # Decisions where the design was silent
//
//   - State: every policy value declares its own session STATE slice when it
//     is constructed (WINK shared one PolicyState slice among all policies).
//     A failed call is rolled back with the session, so a rolled-back
//     "build" does not satisfy "deploy". Construct policies once, at startup:
//     slice ids are process-wide. Check never writes state (it runs before
//     the call's snapshot); OnResult does.
//   - Memory: no policy reads the session's logs (wink.ToolLog, wink.PolicyLog),
//     which keep only the newest calls (wink.Dispatcher.LogLimits), so a file
//     read or a prerequisite done long ago still counts. Their own slices grow
//     with what they know, not with calls: one entry per distinct path read
//     or written (ReadBeforeWrite), per prerequisite done
//     (SequentialDependency), per decision on a held call (ApprovalSlice,
//     kept whole so that a decided call never runs twice).
//   - SequentialDependency lists every missing prerequisite, sorted and
//     deduplicated, and records only tools that are someone's prerequisite.
//     It has no suggestions (WINK's text is the whole message).
//   - ReadBeforeWrite finds the path through PathParams, else the "path" then
//     "file_path" string field of the params' canonical JSON
//     (wink.Tool.ParamString: no reflection). Paths are cleaned with
//     vfs.Clean, and the denial names the cleaned path. A successful write
//     also makes a path known (the model wrote what it now holds). A path
//     that does not clean (escapes the root) is allowed: the filesystem
//     refuses it with a better message. No filesystem on the call: every
//     path is taken to exist. A Stat error other than "not found" counts as
//     existing (fail-closed).
//   - Approvals are bound (RequireApproval): a decision records the held
//     call's wink.Binding (the hold id the dispatcher drew when it held the
//     call, the tool, "sha256:" of the canonical arguments, the session and
//     the run) and is applied only to a call whose binding is equal in every
//     part; a provider's call id identifies nothing (Gemini's "gemini-0"
//     opens every turn). Approve and Deny take the *wink.HeldError itself and
//     refuse a session other than the call's. Decisions recorded before
//     bindings (a call id alone) apply to nothing: those calls are held again.
//   - Replayed idempotent calls count as successes for OnResult.
//   - AllOf: first denial wins. AnyOf: the first allowing member wins; when
//     all deny, reasons are joined with "\nAlternatively: ". Member panics
//     deny (wink.CheckPolicy), whatever the composition.
package policy
