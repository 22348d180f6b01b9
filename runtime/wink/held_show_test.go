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
	// The arguments (up to a megabyte) are written straight into one buffer, and their other spelling
	// from the members' bounds noted on the way, and every buffer is reused from round to round: under
	// -race every byte the test copies or scans is instrumented, and building the texts by joining
	// strings, then growing fresh buffers for them, cost more than the checks.
	var text, respelled, canon, canon2 []byte
	var members [][2]int
	// 100 rounds: every defect put in on purpose so far (a member left out, a share past its bound, a cut
	// string that does not say so, a short member cut) failed by round 5.
	for round := range 100 {
		n := 1 + rng.IntN(8)
		text = append(text[:0], '{')
		members = members[:0]
		short := map[string]string{}
		for i := range n {
			if i > 0 {
				text = append(text, ',')
			}
			from := len(text)
			key := "m" + strconv.Itoa(i)
			text = strconv.AppendQuote(text, key)
			text = append(text, ':')
			if rng.IntN(3) == 0 {
				v := `"payee-` + strconv.Itoa(round) + `"`
				short[key] = v
				text = append(text, v...)
			} else {
				text = appendRandomValue(text, rng, 0)
			}
			members = append(members, [2]int{from, len(text)})
		}
		text = append(text, '}')
		var err error
		canon, err = strictjson.CanonicalExact(canon[:0], text)
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
		// Another spelling: whitespace, members in reverse order.
		respelled = append(respelled[:0], "{ "...)
		for i := len(members) - 1; i >= 0; i-- {
			if i < len(members)-1 {
				respelled = append(respelled, " ,\n "...)
			}
			respelled = append(respelled, text[members[i][0]:members[i][1]]...)
		}
		respelled = append(respelled, " }"...)
		canon2, err = strictjson.CanonicalExact(canon2[:0], respelled)
		if err != nil {
			t.Fatal(err)
		}
		if wink.ShowArguments(canon2) != shown {
			t.Fatalf("round %d: another spelling shows another text", round)
		}
	}
}

var manyX, many9 = strings.Repeat("x", 2000), strings.Repeat("9", 600)

// appendRandomValue appends a JSON value, sometimes large: long strings, long numbers, many items,
// nesting.
func appendRandomValue(dst []byte, rng *rand.Rand, depth int) []byte {
	switch k := rng.IntN(6); {
	case k == 0:
		dst = append(dst, '"')
		dst = append(dst, manyX[:rng.IntN(2000)]...)
		return append(dst, '"')
	case k == 1:
		return append(dst, many9[:1+rng.IntN(600)]...)
	case k == 2 && depth < 4, k == 3 && depth < 4:
		open, closing := byte('['), byte(']')
		if k == 3 {
			open, closing = '{', '}'
		}
		dst = append(dst, open)
		for i := range rng.IntN([]int{300, 20, 5, 3}[depth]) {
			if i > 0 {
				dst = append(dst, ',')
			}
			if k == 3 {
				dst = strconv.AppendQuote(dst, "k"+strconv.Itoa(i))
				dst = append(dst, ':')
			}
			dst = appendRandomValue(dst, rng, depth+1)
		}
		return append(dst, closing)
	case k == 4:
		return append(dst, "\"\u202eevil\u200b\""...)
	default:
		return append(dst, []string{"true", "false", "null", "-1.5e300", "0"}[rng.IntN(5)]...)
	}
}
