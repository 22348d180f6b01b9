package prompt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/wink"
)

// Override replaces the description of a tool whose wink.Spec.AcceptsOverrides is
// true. ContractHash is ContractHash of the tool the override was written
// for: when the tool's contract changes, the override is refused instead of
// describing a tool that no longer exists.
type Override struct {
	// Description is the replacement description (1-200 ASCII characters
	// after trimming surrounding whitespace).
	Description string
	// ContractHash is the hash of the contract the override was written
	// against (see ContractHash).
	ContractHash string
}

// Overrides are description overrides by tool name.
type Overrides map[string]Override

// ContractHash returns the hex SHA-256 of t's contract: its name,
// description, ParamsSchema and ResultSchema. Each field, in that order,
// contributes its decimal byte length, ":", its bytes and "\n", so that no
// two contracts share an input. Changing any of the four changes the hash.
func ContractHash(t *wink.Tool) string {
	h := sha256.New()
	var buf []byte
	for _, f := range [...][]byte{[]byte(t.Spec().Name), []byte(t.Spec().Description), t.Spec().ParamsSchema, t.Spec().ResultSchema} {
		buf = strconv.AppendInt(buf[:0], int64(len(f)), 10)
		buf = append(buf, ':')
		h.Write(buf)
		h.Write(f)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkOverride reports why o cannot apply to t, or nil. Texts:
//
//	override for tool "x" refused: the tool does not accept overrides
//	override for tool "x" refused: written for contract <hash>, but the current contract is <hash>
//	override for tool "x" refused: the description must be 1 to 200 ASCII characters
func checkOverride(t *wink.Tool, o Override) error {
	name := strconv.Quote(t.Spec().Name)
	if !t.Spec().AcceptsOverrides {
		return fmt.Errorf("override for tool %s refused: the tool does not accept overrides", name)
	}
	if want := ContractHash(t); o.ContractHash != want {
		got := o.ContractHash
		if got == "" {
			got = `""`
		}
		return fmt.Errorf("override for tool %s refused: written for contract %s, but the current contract is %s",
			name, got, want)
	}
	if d := strings.TrimSpace(o.Description); d == "" || len(d) > 200 || !isASCII(d) {
		return fmt.Errorf("override for tool %s refused: the description must be 1 to 200 ASCII characters", name)
	}
	return nil
}

// isASCII reports whether every byte of s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
