package schema

import (
	"regexp"
	"strings"
	"testing"
)

func TestAnchoredKeepsWhatTheDeveloperWrote(t *testing.T) {
	for p, want := range map[string]string{
		`[a-z]+`:       `^(?:[a-z]+)$`,
		`^[a-z]+$`:     `^[a-z]+$`,
		`^(?:a|b)$`:    `^(?:a|b)$`,
		`^a|b$`:        `^(?:^a|b$)$`, // (^a)|(b$): not anchored as a whole
		`^a`:           `^(?:^a)$`,
		`a$`:           `^(?:a$)$`,
		`^[a-z]+\$`:    `^(?:^[a-z]+\$)$`, // an escaped dollar is a literal
		`(^a$)`:        `^(?:(^a$))$`,
		`^$`:           `^$`,
		`^(a)(b)$`:     `^(a)(b)$`,
		`^[$]$`:        `^[$]$`,
		`^a$|^b$`:      `^(?:^a$|^b$)$`,
		`^(?:x)+y{2}$`: `^(?:x)+y{2}$`,
	} {
		if got := Anchored(p); got != want {
			t.Errorf("Anchored(%q) = %q, want %q", p, got, want)
		}
		// Whatever the form, it full-matches exactly what ^(?:p)$ does.
		a, b := regexp.MustCompile(Anchored(p)), regexp.MustCompile(`^(?:`+p+`)$`)
		for _, s := range []string{"", "a", "b", "ab", "abc", "xy", "xyy", "xxyy", "$", "a$", "zz"} {
			if a.MatchString(s) != b.MatchString(s) {
				t.Errorf("Anchored(%q) and ^(?:p)$ disagree on %q", p, s)
			}
		}
	}
}

func TestCheckPatternAcceptsThePortableSubset(t *testing.T) {
	for _, p := range []string{
		`[a-z]+`, `^[a-z]+$`, `[A-Z]{2,5}-\d+`, `\w*\.\x41`, `[\-\]\[\\]`, `(?:a|b)+?`, `a{3}`, `a{3,}`,
		`[^/]*`, `/[A-Za-z0-9_./-]*`, `[ -~]+`, `\t\n\r\f\v`, `\D\W`, `é+`, `[à-ÿ]`, `a\/b`, `\(\)\*\+\?\|\^\$`,
		`/?(?:[ -.0-~]{3,80}|[ -,0-~-][ -.0-~]?|[.][ -,0-~-])`,
	} {
		if err := CheckPattern(p); err != nil {
			t.Errorf("CheckPattern(%q) = %v, want nil", p, err)
		}
	}
}

func TestCheckPatternRefusesWhatIsNotPortable(t *testing.T) {
	for p, want := range map[string]string{
		`a)|(b`:       "is not a valid RE2 expression on its own",
		`(a`:          "is not a valid RE2 expression on its own",
		`a.c`:         `has "." at offset 1`,
		`a\sb`:        `has \s at offset 1`,
		`\S`:          `has \S at offset 0`,
		`\bx`:         `has \b at offset 0`,
		`x\B`:         `has \B at offset 1`,
		`(?i)abc`:     `has a group with flags or a name (?i) at offset 0`,
		`(?P<n>a)`:    `has a group with flags or a name (?P<n> at offset 0`,
		`(?s:a)`:      `has a group with flags or a name (?s: at offset 0`,
		`[[:alpha:]]`: `has a POSIX class at offset 1`,
		`\pL`:         `has the Unicode class escape \p at offset 0`,
		`\p{Greek}`:   `has the Unicode class escape \p at offset 0`,
		`a{`:          `has a literal "{" at offset 1`,
		`a{,3}`:       `has a literal "{" at offset 1`,
		`a}`:          `has a literal "}" at offset 1`,
		`a\:b`:        `has the escape \: at offset 1`,
		`\A`:          `has the escape \A at offset 0`,
		`a\z`:         `has the escape \z at offset 1`,
		`\Qa\E`:       `has the escape \Q at offset 0`,
		`\x{41}`:      `has \x without exactly two hex digits at offset 0`,
		`\101`:        `has \1 at offset 0`,
		`[a.\s]`:      `has \s at offset 3`,
	} {
		err := CheckPattern(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckPattern(%q) = %v, want an error containing %q", p, err, want)
		}
	}
}
