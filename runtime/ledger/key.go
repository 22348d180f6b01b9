package ledger

import (
	"crypto/sha256"
	"strconv"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Strategy says how a tool's idempotency key is derived from a call.
//
// The zero value is None, so a tool descriptor that says nothing about
// idempotency never replays results.
type Strategy uint8

const (
	// None disables idempotency: the handler always runs and nothing is recorded.
	None Strategy = iota
	// Auto hashes the canonical JSON encoding of all decoded parameters (WINK's default strategy).
	Auto
	// Params hashes only the selected parameter fields, in the order they were selected.
	Params
	// Custom uses a key computed by the tool's own code from the decoded parameters.
	Custom
)

var strategyNames = [...]string{None: "none", Auto: "auto", Params: "params", Custom: "custom"}

// String returns the strategy's directive spelling: "none", "auto", "params" or "custom".
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "Strategy(" + strconv.Itoa(int(s)) + ")"
}

// ParseStrategy parses the directive spelling of a strategy (as in
// `//wink:idempotent strategy=auto`). The match is exact and case-sensitive.
func ParseStrategy(s string) (Strategy, error) {
	for i, n := range strategyNames {
		if s == n {
			return Strategy(i), nil
		}
	}
	return None, &strategyError{s}
}

type strategyError struct{ s string }

func (e *strategyError) Error() string {
	return "unknown idempotency strategy " + strconv.Quote(e.s) + " (allowed: auto, params, custom, none)"
}

// DefaultScope is the scope used when a tool declares idempotency without a scope (WINK's default).
const DefaultScope = "session"

// CheckScope reports whether scope can be used as a key prefix: 1 to 128
// characters from [A-Za-z0-9_.-]. The ':' separator is excluded so that the
// scope, the tool name and the hash can never run into one another.
func CheckScope(scope string) error {
	if scope == "" || len(scope) > 128 {
		return &scopeError{scope}
	}
	for i := 0; i < len(scope); i++ {
		c := scope[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return &scopeError{scope}
		}
	}
	return nil
}

type scopeError struct{ s string }

func (e *scopeError) Error() string {
	return "invalid idempotency scope " + strconv.Quote(e.s) + ": must be 1-128 characters from A-Z a-z 0-9 _ . -"
}

// Field is one selected parameter for the Params strategy: its JSON name and
// the JSON encoding of its value (any spelling: the key hashes its canonical
// form). A nil or empty JSON is hashed as null, so an absent optional field
// and an explicit null give the same key.
type Field struct {
	Name string
	JSON []byte
}

// hexDigits are the lower-case hex digits (encoding/hex is not used: it imports fmt).
const hexDigits = "0123456789abcdef"

// hashLen is the number of hex characters of the SHA-256 digest kept in a key.
const hashLen = 16

// AutoKey returns the key of the Auto strategy: "scope:tool:" followed by the
// first 16 hex characters of the SHA-256 of the canonical form of params, the
// JSON encoding of the decoded parameters: its RFC 8785 form
// (strictjson.CanonicalExact: members sorted, no whitespace, minimal escapes,
// numbers by value), so every spelling of the same value (a free-form
// wink.RawJSON field reordered, re-indented or escaped differently, 1e2 for
// 100) gives the same key, and different values never do. params that are not
// one JSON value are hashed as given.
func AutoKey(scope, tool string, params []byte) string {
	var stack [512]byte
	sum := sha256.Sum256(canonicalOr(stack[:0], params))
	return join(scope, tool, &sum)
}

// canonicalOr returns the canonical form of src appended to dst, or src when
// it has none.
func canonicalOr(dst, src []byte) []byte {
	if c, err := strictjson.CanonicalExact(dst, src); err == nil {
		return c
	}
	return src
}

// ParamsKey returns the key of the Params strategy: "scope:tool:" followed by
// the first 16 hex characters of the SHA-256 of the canonical form (as for
// AutoKey) of the JSON object made of the given fields. The order in which
// fields are given does not matter, and selecting every field gives the same
// key as AutoKey. A field named twice keeps its first value.
func ParamsKey(scope, tool string, fields []Field) string {
	var stack [256]byte
	b := append(stack[:0], '{')
	for i, f := range fields {
		dup := false
		for _, g := range fields[:i] {
			if g.Name == f.Name {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = appendJSONString(b, f.Name)
		b = append(b, ':')
		if len(f.JSON) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, f.JSON...)
		}
	}
	b = append(b, '}')
	var out [512]byte
	sum := sha256.Sum256(canonicalOr(out[:0], b))
	return join(scope, tool, &sum)
}

// CustomKey returns the key of the Custom strategy: "scope:tool:custom".
//
// WINK writes "scope:custom" without the tool; winkgen keeps the tool so that
// two tools whose key functions agree can never replay each other's results.
// The scope is one made by SessionScope or Scope (it holds no ':'), the tool
// is escaped (EscapePart) and custom comes last, so the key is unambiguous
// whatever custom holds.
func CustomKey(scope, tool, custom string) string {
	return scope + ":" + EscapePart(tool) + ":" + custom
}

// SessionScope returns the scope of keys private to session id:
// "session." followed by id escaped (EscapePart). Two sessions never share a
// scope, whatever their ids hold, and no scope made by Scope equals one.
func SessionScope(id string) string { return "session." + EscapePart(id) }

// Scope returns the key prefix for a scope declared by a tool (not a
// session's: see SessionScope): the scope escaped (EscapePart), with the dot
// of a leading "session." escaped too, so that a declared scope can never
// stand for a session's.
func Scope(scope string) string {
	s := EscapePart(scope)
	if len(s) >= len("session.") && s[:len("session.")] == "session." { // "session." itself is SessionScope("")
		s = "session%2E" + s[len("session."):]
	}
	return s
}

// EscapePart escapes one part of a key so that it holds no ':' (the
// separator): '%' becomes "%25" and ':' becomes "%3A". The escaping is
// injective, and a part without either character is returned as is, so
// keys of valid scopes and tool names are unchanged by it.
func EscapePart(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] == ':' {
			n++
		}
	}
	if n == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			b = append(b, "%25"...)
		case ':':
			b = append(b, "%3A"...)
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

func join(scope, tool string, sum *[sha256.Size]byte) string {
	tool = EscapePart(tool)
	n := len(scope) + 1 + len(tool) + 1
	var stack [128]byte
	var b []byte
	if n+hashLen <= len(stack) {
		b = stack[:0]
	} else {
		b = make([]byte, 0, n+hashLen)
	}
	b = append(b, scope...)
	b = append(b, ':')
	b = append(b, tool...)
	b = append(b, ':')
	for _, c := range sum[:hashLen/2] {
		b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return string(b)
}

// appendJSONString appends s as a JSON string, escaping as RFC 8259 requires
// (quote, backslash, control characters). Field names are JSON names chosen
// at generation time, so this never sees invalid UTF-8 in practice; bytes are
// copied through unchanged.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
