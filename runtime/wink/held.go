package wink

import (
	"crypto/rand"
	"crypto/sha256"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Held calls and what a decision on one is bound to.
//
// A provider's call id is not an identity: Gemini names the first call of every turn "gemini-0", and
// providers and clients reuse or choose ids freely. So when a policy (or Elicit) holds a call, the
// dispatcher gives the call an id of its own, HeldError.Binding.Hold: 128 random bits, never the
// provider's id. Whoever dispatches the held call again (loop.Resume, the MCP server's retry, a durable
// engine) sets Call.Hold to it; a model's new call never carries one. A decision (policy.Approve,
// policy.Deny, AnswerElicitation) is recorded with the whole Binding of the HeldError it answers, and is
// applied only to a call whose Binding is equal: the same hold id, the same tool, the same arguments
// (the SHA-256 of their canonical form, so any spelling of them but no other value), the same session
// and the same run. A decision for anything else is never applied: the call is held again.

// Binding is what a decision on a held call is bound to (HeldError.Binding, ToolContext.Binding).
type Binding struct {
	// Hold is the id the dispatcher gave the held call (Call.Hold when it is dispatched again).
	Hold string
	// Tool is the called tool's name.
	Tool string
	// Digest is "sha256:" and the hex SHA-256 of the call's canonical arguments (CanonicalArguments).
	Digest string
	// Session is the id of the dispatcher's session ("" without one).
	Session string
	// Run is the dispatcher's RunContext.RunID.
	Run string
}

// newHoldID returns a fresh hold id: "hold-" and 32 hex digits of crypto/rand.
func newHoldID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 5+32)
	out = append(out, "hold-"...)
	for _, c := range b {
		out = append(out, hex[c>>4], hex[c&0xf])
	}
	return string(out)
}

// CanonicalArguments returns the arguments of the call in their canonical form: the decoded params
// (defaults filled in) encoded by the tool's generated encoder, then written as RFC 8785 says
// (strictjson.CanonicalExact), so every spelling of the same arguments gives the same bytes; for a tool
// without a params encoder, the canonical form of the arguments as sent. It is computed once per call,
// on first use.
//
// Once the call has ended (Dispatch returned), it returns what it computed during the call, and nil when
// it was never called then: the decoded params and the arguments belong to the call, and are gone. A
// handler (or a goroutine it starts) that needs them after the call calls it once during the call. It is
// safe to call from any goroutine, concurrently; callers must not modify the result.
func (tc *ToolContext) CanonicalArguments() []byte {
	r := tc.lockRare()
	if r == nil { // the call ended without computing them
		return nil
	}
	// Held while the frame and the arguments are read: the end of the call waits for it.
	defer r.unlock()
	if r.canon != nil || r.ended() { // never nil once computed
		return r.canon
	}
	var src []byte
	if tc.fr != nil {
		if b, ok := tc.fr.appendParams(nil); ok {
			src = b
		}
	}
	if src == nil {
		src = r.args
	}
	if len(src) == 0 {
		src = []byte("{}")
	}
	c, err := strictjson.CanonicalExact(nil, src)
	if err != nil {
		c = append([]byte(nil), src...) // never after strict decoding; kept as sent
	}
	r.canon = c
	return c
}

// CanonicalArguments returns the canonical arguments (as ToolContext.CanonicalArguments computes them
// for a call) of a call to t with args, decoded strictly with lim: what Binding.Digest hashes, for a
// program that decides on a call it knows by its arguments.
func (t *Tool) CanonicalArguments(args []byte, lim strictjson.Limits) ([]byte, error) {
	p, err := t.Decode(args, lim)
	if err != nil {
		return nil, err
	}
	src, ok := t.EncodeParams(nil, p)
	if !ok {
		src = args
	}
	if len(src) == 0 {
		src = []byte("{}")
	}
	return strictjson.CanonicalExact(nil, src)
}

// Binding returns what a decision on this call is bound to: its hold id (Call.Hold, "" for a call
// never held), the tool, the digest of its canonical arguments, the session and the run. Once the call
// has ended, Digest is "" unless the canonical arguments were computed during the call
// (CanonicalArguments).
func (tc *ToolContext) Binding() Binding {
	b := Binding{Hold: tc.hold(), Tool: tc.ToolName, Run: tc.Run.RunID}
	if canon := tc.CanonicalArguments(); canon != nil {
		b.Digest = ArgumentsDigest(canon)
	}
	if s := tc.sess.Load(); s != nil {
		b.Session = s.ID()
	}
	return b
}

// ArgumentsDigest returns "sha256:" and the hex SHA-256 of canonical.
func ArgumentsDigest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 7+64)
	out = append(out, "sha256:"...)
	for _, c := range sum {
		out = append(out, hex[c>>4], hex[c&0xf])
	}
	return string(out)
}

// MaxShownArguments bounds the arguments a held call's question shows (HeldError.Arguments), in bytes;
// MaxShownString bounds each string value in them.
const (
	MaxShownArguments = 2048
	MaxShownString    = 256
)

// ShowArguments returns canonical arguments as a person deciding on the call is shown them: the canonical
// text (no whitespace, members sorted, so padding or reordering by the model changes nothing), and
// bounded so that no part of the arguments can push another out of sight:
//   - every member of the arguments object is shown, each value within a fair share of MaxShownArguments
//     (a short value keeps what it needs and leaves the rest to the longer ones);
//   - a string value longer than MaxShownString bytes (or than its share) is cut with "…[N more bytes]"
//     inside its quotes;
//   - an array or object inside a value shows the items that fit its share and then "…[N more items]",
//     so a list padded with many items says how many were not shown instead of hiding the members after it;
//   - characters that print nothing or reorder text (controls, bidirectional overrides, zero-width and
//     other format characters) are written as \uXXXX escapes.
//
// Equal canonical arguments give equal texts. The decision is bound to the whole arguments (their digest),
// never to what was shown.
func ShowArguments(canonical []byte) string {
	if len(canonical) == 0 {
		return ""
	}
	if canonical[0] != '{' {
		return string(showValue(nil, canonical, MaxShownArguments))
	}
	// The members of the arguments object, each shown in full or within its share.
	type member struct{ key, val []byte }
	var ms []member
	keys := 0
	for i := 1; i < len(canonical) && canonical[i] != '}'; {
		k := skipValue(canonical, i)
		v := skipValue(canonical, k+1)
		ms = append(ms, member{canonical[i:k], canonical[k+1 : v]})
		keys += min(k-i, MaxShownString) + 2
		i = v
		if i < len(canonical) && canonical[i] == ',' {
			i++
		}
	}
	if len(ms) == 0 {
		return "{}"
	}
	shares := fairShares(len(ms), MaxShownArguments-2-keys, func(i int) int { return len(ms[i].val) })
	out := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendShownString(out, m.key, MaxShownString)
		out = append(out, ':')
		out = showValue(out, m.val, shares[i])
	}
	return string(append(out, '}'))
}

// minShare is the least a member's value is given, however many members there are.
const minShare = 48

// fairShares divides budget among n values of sizes size(i) (water-filling): a value that needs no more
// than an equal share keeps its size, and what it leaves is divided among the others; none gets less
// than minShare.
func fairShares(n, budget int, size func(int) int) []int {
	shares := make([]int, n)
	done := make([]bool, n)
	left := n
	for left > 0 {
		share := budget / left
		changed := false
		for i := range n {
			if !done[i] && size(i) <= share {
				shares[i], done[i] = size(i), true
				budget -= size(i)
				left--
				changed = true
			}
		}
		if !changed {
			for i := range n {
				if !done[i] {
					shares[i] = max(share, minShare)
				}
			}
			break
		}
	}
	return shares
}

// showValue appends the canonical value v as ShowArguments shows it, in about budget bytes.
func showValue(dst, v []byte, budget int) []byte {
	// A value that fits its share is shown whole (strings still cut at MaxShownString); a longer one is
	// cut within it, leaving room for the note that says what was cut.
	limit := max(min(MaxShownString, budget-24), 8)
	if len(v) <= budget {
		limit, budget = MaxShownString, budget+24
	}
	switch v[0] {
	case '"':
		return appendShownString(dst, v, limit)
	case '{', '[':
		return appendShownContainer(dst, v, budget)
	default:
		// A number (CanonicalExact keeps every digit of a long one), true, false or null.
		if limit = max(limit, 16); len(v) > limit {
			dst = append(dst, v[:limit]...)
			dst = append(dst, "…["...)
			dst = strconv.AppendInt(dst, int64(len(v)-limit), 10)
			return append(dst, " more digits]"...)
		}
		return append(dst, v...)
	}
}

// appendShownContainer appends the items of the array or object v that fit in budget, then how many
// were left out.
func appendShownContainer(dst, v []byte, budget int) []byte {
	const reserve = 24 // room for the "…[N more items]" note and the closing bracket
	base := len(dst)
	closing := v[len(v)-1]
	dst = append(dst, v[0])
	i, first := 1, true
	for i < len(v)-1 {
		remaining := budget - (len(dst) - base) - reserve
		if remaining < 8 {
			more := 0
			for i < len(v)-1 {
				i = itemEnd(v, i)
				more++
			}
			if !first {
				dst = append(dst, ',')
			}
			dst = append(dst, "…["...)
			dst = strconv.AppendInt(dst, int64(more), 10)
			dst = append(dst, " more items]"...)
			break
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		if v[0] == '{' {
			k := skipValue(v, i)
			dst = appendShownString(dst, v[i:k], max(min(MaxShownString, remaining/2), 8))
			dst = append(dst, ':')
			i = k + 1
			remaining = budget - (len(dst) - base) - reserve
		}
		end := skipValue(v, i)
		dst = showValue(dst, v[i:end], remaining)
		i = end
		if i < len(v)-1 && v[i] == ',' {
			i++
		}
	}
	return append(dst, closing)
}

// itemEnd returns where the item (a value, or a member of an object) at i of the container c ends, past
// its comma.
func itemEnd(c []byte, i int) int {
	i = skipValue(c, i)
	if i < len(c) && c[i] == ':' {
		i = skipValue(c, i+1)
	}
	if i < len(c) && c[i] == ',' {
		i++
	}
	return i
}

// skipValue returns the index just past the canonical JSON value that starts at c[i].
func skipValue(c []byte, i int) int {
	switch c[i] {
	case '"':
		for i++; i < len(c) && c[i] != '"'; i++ {
			if c[i] == '\\' {
				i++
			}
		}
		return i + 1
	case '{', '[':
		depth := 0
		for i < len(c) {
			switch c[i] {
			case '"':
				i = skipValue(c, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(c) && c[i] != ',' && c[i] != '}' && c[i] != ']' && c[i] != ':' {
			i++
		}
		return i
	}
}

// appendShownString appends the canonical string s (with its quotes), its content cut after limit bytes
// with "…[N more bytes]", and characters that print nothing or reorder text escaped.
func appendShownString(out, s []byte, limit int) []byte {
	out = append(out, '"')
	canonical := s[1 : len(s)-1]
	shown := 0
	for i := 0; i < len(canonical); {
		n := 1
		if canonical[i] == '\\' {
			n = 2
		} else if canonical[i] >= utf8.RuneSelf {
			_, n = utf8.DecodeRune(canonical[i:])
		}
		if shown+n > limit {
			rest := 0
			for i < len(canonical) {
				if canonical[i] == '\\' {
					i++
				}
				i++
				rest++
			}
			out = append(out, "…["...)
			out = strconv.AppendInt(out, int64(rest), 10)
			out = append(out, " more bytes]"...)
			break
		}
		if n > 1 && canonical[i] != '\\' {
			r, _ := utf8.DecodeRune(canonical[i:])
			if !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
				out = append(out, '\\', 'u')
				out = appendHex4(out, r)
				i += n
				shown += n
				continue
			}
		}
		out = append(out, canonical[i:i+n]...)
		i += n
		shown += n
	}
	return append(out, '"')
}

func appendHex4(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r > 0xFFFF {
		// Outside the BMP: both surrogates.
		r -= 0x10000
		hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
		dst = append(dst, hex[hi>>12&0xF], hex[hi>>8&0xF], hex[hi>>4&0xF], hex[hi&0xF], '\\', 'u')
		r = lo
	}
	return append(dst, hex[r>>12&0xF], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
}

// heldError builds the HeldError of call, held by policy for reason, with its binding: the call's hold
// id when it carries one (a held call dispatched again keeps its id), else a new one.
// It runs during the call (a policy's decision on the dispatcher's goroutine, or Elicit, which refuses
// once the call has ended).
func (tc *ToolContext) heldError(call Call, policy, reason string) *HeldError {
	if r := tc.lockRare(); r != nil {
		if r.hold == "" && !r.ended() {
			r.hold = newHoldID()
		}
		r.unlock()
	}
	call.Hold = tc.hold()
	canon := tc.CanonicalArguments()
	return &HeldError{Call: call, Policy: policy, Reason: reason, Binding: tc.Binding(), Arguments: ShowArguments(canon)}
}

// Question returns what a person deciding on the held call is asked: the tool, the arguments as
// ShowArguments writes them, and the reason; for a call held by Elicit, the handler's message. It is
// the same for every spelling of the same arguments.
func (e *HeldError) Question() string {
	if e.Elicitation != nil {
		return e.Elicitation.Message
	}
	q := "Allow the call to tool " + strconv.Quote(e.Call.Name) + " with the arguments " + e.Arguments + "?"
	if e.Reason != "" {
		q += " (" + e.Reason + ")"
	}
	return q
}
