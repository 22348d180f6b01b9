package strictjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// iDecisions lists how every implementation-defined (i_) file of the suite is decided (see doc.go).
var iDecisions = map[string]bool{ // name → accepted
	"i_number_double_huge_neg_exp.json":                   true,
	"i_number_huge_exp.json":                              true,
	"i_number_neg_int_huge_exp.json":                      true,
	"i_number_pos_double_huge_exp.json":                   true,
	"i_number_real_neg_overflow.json":                     true,
	"i_number_real_pos_overflow.json":                     true,
	"i_number_real_underflow.json":                        true,
	"i_number_too_big_neg_int.json":                       true,
	"i_number_too_big_pos_int.json":                       true,
	"i_number_very_big_negative_int.json":                 true,
	"i_object_key_lone_2nd_surrogate.json":                false,
	"i_string_1st_surrogate_but_2nd_missing.json":         false,
	"i_string_1st_valid_surrogate_2nd_invalid.json":       false,
	"i_string_UTF-16LE_with_BOM.json":                     false,
	"i_string_UTF-8_invalid_sequence.json":                false,
	"i_string_UTF8_surrogate_U+D800.json":                 false,
	"i_string_incomplete_surrogate_and_escape_valid.json": false,
	"i_string_incomplete_surrogate_pair.json":             false,
	"i_string_incomplete_surrogates_escape_valid.json":    false,
	"i_string_invalid_lonely_surrogate.json":              false,
	"i_string_invalid_surrogate.json":                     false,
	"i_string_invalid_utf-8.json":                         false,
	"i_string_inverted_surrogates_U+1D11E.json":           false,
	"i_string_iso_latin_1.json":                           false,
	"i_string_lone_second_surrogate.json":                 false,
	"i_string_lone_utf8_continuation_byte.json":           false,
	"i_string_not_in_unicode_range.json":                  false,
	"i_string_overlong_sequence_2_bytes.json":             false,
	"i_string_overlong_sequence_6_bytes.json":             false,
	"i_string_overlong_sequence_6_bytes_null.json":        false,
	"i_string_truncated-utf-8.json":                       false,
	"i_string_utf16BE_no_BOM.json":                        false,
	"i_string_utf16LE_no_BOM.json":                        false,
	"i_structure_500_nested_arrays.json":                  false,
	"i_structure_UTF-8_BOM_empty_object.json":             false,
}

// suiteFiles lists the repository's JSONTestSuite cases (testdata/jsontestsuite/test_parsing at the
// module root) and fails when they are missing: the conformance set is part of the contract, so its
// absence must not pass silently.
func suiteFiles(t testing.TB) []string {
	dir := filepath.Join("..", "..", "testdata", "jsontestsuite", "test_parsing")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) < 300 {
		t.Fatalf("JSON test suite not found in %s (%d files)", dir, len(files))
	}
	return files
}

// skipAll runs data through Reset, Skip, Finish and returns the errors.
func skipAll(data []byte) *Errors {
	var d Decoder
	d.Reset(data, Limits{})
	d.Skip()
	return d.Finish()
}

func TestJSONTestSuiteAcceptsYRejectsNAndDecidesI(t *testing.T) {
	seenI := 0
	for _, f := range suiteFiles(t) {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		errs := skipAll(data)
		var want bool
		switch {
		case strings.HasPrefix(name, "y_"):
			want = true
		case strings.HasPrefix(name, "n_"):
			want = false
		case strings.HasPrefix(name, "i_"):
			w, ok := iDecisions[name]
			if !ok {
				t.Errorf("%s: i_ file without a decision", name)
				continue
			}
			want = w
			seenI++
		default:
			continue
		}
		if got := errs == nil; got != want {
			t.Errorf("%s: accepted=%v, want %v (errors: %v)", name, got, want, errs)
			continue
		}
		if errs != nil {
			if len(errs.List) != 1 || errs.List[0].Path != "" || !strings.HasPrefix(errs.List[0].Message, "invalid JSON at byte ") {
				t.Errorf("%s: want one syntax error, got %q", name, errs.Lines())
			}
		}
	}
	if seenI != len(iDecisions) {
		t.Errorf("decided %d i_ files, the table has %d", seenI, len(iDecisions))
	}
}
