package strictjson

import (
	"strings"
	"unicode/utf8"
)

// suggest picks the allowed name closest to an unknown key: a case-insensitive equal name first;
// otherwise the name with the smallest Damerau-Levenshtein distance (optimal string alignment, on
// runes) that is at most max(2, len(name)/3), len in runes of the allowed name. Ties go to the earlier
// name. Lengths are compared first, so a huge key costs nothing.
func suggest(key string, allowed []string) (string, bool) {
	for _, a := range allowed {
		if strings.EqualFold(a, key) {
			return a, true
		}
	}
	kl := utf8.RuneCountInString(key)
	best, bestDist := "", -1
	for _, a := range allowed {
		al := utf8.RuneCountInString(a)
		limit := max(2, al/3)
		if kl-al > limit || al-kl > limit {
			continue
		}
		dist := osaDistance([]rune(key), []rune(a))
		if dist <= limit && (bestDist < 0 || dist < bestDist) {
			best, bestDist = a, dist
		}
	}
	return best, bestDist >= 0
}

// osaDistance is the optimal string alignment distance: insertions, deletions, substitutions and
// transpositions of adjacent runes each cost 1.
func osaDistance(a, b []rune) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, rows[i-2][j-2]+1)
			}
			rows[i][j] = v
		}
	}
	return rows[len(a)][len(b)]
}
