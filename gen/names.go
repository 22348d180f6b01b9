package gen

import (
	"strings"
	"unicode"
)

// snakeCase converts a Go identifier to snake_case: SearchDocs → search_docs, URLPath → url_path,
// MaxSizeMB → max_size_mb, ID → id.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					b.WriteByte('_')
				}
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// foldSpace collapses runs of white space into single spaces and trims the ends.
func foldSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// toolDescription turns a function's doc comment text (directives already removed) into the model-facing
// description: whitespace folded; a leading function name, the Go doc convention, dropped and the next word
// capitalised ("SearchDocs searches the index." → "Searches the index.").
func toolDescription(doc, funcName string) string {
	d := foldSpace(doc)
	if rest, ok := strings.CutPrefix(d, funcName+" "); ok && rest != "" {
		r := []rune(rest)
		r[0] = unicode.ToUpper(r[0])
		d = string(r)
	}
	return d
}

// isASCII reports whether s holds only ASCII characters.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// validToolName reports whether name matches ^[a-z_][a-z0-9_-]{0,63}$: what every provider accepts as a
// function name. OpenAI and Anthropic take ^[a-zA-Z0-9_-]{1,64}$; Gemini's function names must also start
// with a letter or an underscore (Vertex AI's FunctionDeclaration.name: "Must start with a letter or an
// underscore"), so a name starting with a digit or a dash is refused here rather than by Gemini's API.
func validToolName(name string) bool {
	if len(name) < 1 || len(name) > 64 || name[0] == '-' || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// exportedName turns a type ID into the part of a generated identifier: search_params → SearchParams.
func exportedName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' {
			up = true
			continue
		}
		if up {
			b.WriteRune(unicode.ToUpper(r))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
