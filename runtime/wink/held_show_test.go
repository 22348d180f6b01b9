package wink_test

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// TestShowArgumentsKeepsEveryMemberInSight: whatever the model puts in the arguments (long strings, long
// numbers, arrays or objects of many items, deep nesting, in members that sort before the others), every
// member of the arguments object is shown, a short member is shown whole, what was cut is said, the text
// stays bounded, and it is the same for every spelling.
func TestShowArgumentsKeepsEveryMemberInSight(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	for round := range 400 {
		n := 1 + rng.IntN(8)
		var b strings.Builder
		b.WriteByte('{')
		short := map[string]string{}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			key := "m" + strconv.Itoa(i)
			b.WriteString(strconv.Quote(key) + ":")
			if rng.IntN(3) == 0 {
				v := `"payee-` + strconv.Itoa(round) + `"`
				short[key] = v
				b.WriteString(v)
				continue
			}
			b.WriteString(randomValue(rng, 0))
		}
		b.WriteByte('}')
		canon, err := strictjson.CanonicalExact(nil, []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		shown := wink.ShowArguments(canon)
		if limit := wink.MaxShownArguments + 64*n; len(shown) > limit {
			t.Fatalf("round %d: %d bytes shown (limit %d)", round, len(shown), limit)
		}
		for i := range n {
			key := "m" + strconv.Itoa(i)
			if !strings.Contains(shown, strconv.Quote(key)+":") {
				t.Fatalf("round %d: member %s out of sight: %.600s", round, key, shown)
			}
			if v, ok := short[key]; ok && !strings.Contains(shown, strconv.Quote(key)+":"+v) {
				t.Fatalf("round %d: short member %s not shown whole: %.600s", round, key, shown)
			}
		}
		if len(canon) > wink.MaxShownArguments && !strings.Contains(shown, "more ") {
			t.Fatalf("round %d: %d bytes of arguments shown in %d without saying what was cut", round, len(canon), len(shown))
		}
		// Another spelling: whitespace, reordered members.
		respelled := "{ " + strings.Join(reverseMembers(b.String()), " ,\n ") + " }"
		canon2, err := strictjson.CanonicalExact(nil, []byte(respelled))
		if err != nil {
			t.Fatal(err)
		}
		if wink.ShowArguments(canon2) != shown {
			t.Fatalf("round %d: another spelling shows another text", round)
		}
	}
}

// randomValue returns a JSON value, sometimes large: long strings, long numbers, many items, nesting.
func randomValue(rng *rand.Rand, depth int) string {
	switch k := rng.IntN(6); {
	case k == 0:
		return strconv.Quote(strings.Repeat("x", rng.IntN(2000)))
	case k == 1:
		return strings.Repeat("9", 1+rng.IntN(600))
	case k == 2 && depth < 4, k == 3 && depth < 4:
		items := make([]string, rng.IntN([]int{300, 20, 5, 3}[depth]))
		for i := range items {
			if k == 2 {
				items[i] = randomValue(rng, depth+1)
			} else {
				items[i] = strconv.Quote("k"+strconv.Itoa(i)) + ":" + randomValue(rng, depth+1)
			}
		}
		if k == 2 {
			return "[" + strings.Join(items, ",") + "]"
		}
		return "{" + strings.Join(items, ",") + "}"
	case k == 4:
		return "\"\u202eevil\u200b\""
	default:
		return []string{"true", "false", "null", "-1.5e300", "0"}[rng.IntN(5)]
	}
}

// reverseMembers splits the top-level members of the object text s (written by the test: no commas at
// depth 1 inside a member's value) and returns them in reverse order.
func reverseMembers(s string) []string {
	var parts []string
	depth, start, inString := 0, 1, false
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	parts = append(parts, s[start:len(s)-1])
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return parts
}
