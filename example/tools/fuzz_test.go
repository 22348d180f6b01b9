package tools

// Fuzz targets with the JSON Schema validator as the oracle, one per example tool, seeded with the agreement
// table. Each input is decoded with the default limits and with agreeLimits (never a panic), and, unless it is
// outside what JSON Schema can judge (see agreement_test.go), the decoder's verdict must equal the
// validator's; accepted params must re-encode to valid JSON that decodes to the same canonical bytes.

import (
	"errors"
	"math/big"
	"testing"

	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// fuzzExclusion says why in is outside what the validator can judge, or "" when it can.
func fuzzExclusion(toolName string, bounds []*big.Rat, in []byte) string {
	return schemaoracle.Exclusion(in, bounds, toolName == "get_status")
}

var schemaBounds = schemaoracle.Bounds

// TestFuzzExclusionsMatchTable: the fuzz oracle's exclusion rules skip exactly the table rows that are
// excluded (so it is neither blind nor too broad), except that its float-edge rule, which knows the schema's
// float bounds but not where they apply, may skip a few more.
func TestFuzzExclusionsMatchTable(t *testing.T) {
	tables := agreementTables()
	for _, s := range subjects() {
		bounds := schemaBounds(s.tool.Spec().ParamsSchema)
		for _, r := range tables[s.name] {
			got := fuzzExclusion(s.name, bounds, []byte(r.in))
			want := r.exclude
			if want == exclDepth {
				want = "" // the table's depth rows exceed the default limit, not agreeLimits
			}
			if got == exclFloatEdge && want == "" {
				continue // the oracle's float bounds are per schema, not per location: a little broader
			}
			if (got != "") != (want != "") {
				t.Errorf("%s row %q: fuzz exclusion %q, table exclusion %q", s.name, r.name, got, r.exclude)
			}
		}
	}
}

func fuzzAgree(f *testing.F, toolName string) {
	var s subject
	for _, c := range subjects() {
		if c.name == toolName {
			s = c
		}
	}
	sch, err := compileSchema(s.name, s.tool.Spec().ParamsSchema)
	if err != nil {
		f.Fatal(err)
	}
	bounds := schemaBounds(s.tool.Spec().ParamsSchema)
	for _, r := range agreementTables()[toolName] {
		f.Add([]byte(r.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s.decode(in, strictjson.Limits{})
		if _, err := s.tool.Decode(in, strictjson.Limits{}); err != nil {
			var ae *wink.ArgumentsError
			if !errors.As(err, &ae) {
				t.Fatalf("Tool.Decode error %T is not an *ArgumentsError: %v", err, err)
			}
		}
		if len(in) > 1<<16 {
			return
		}
		if fuzzExclusion(toolName, bounds, in) != "" {
			s.decode(in, agreeLimits)
			return
		}
		if msg := agreement(s, sch, in); msg != "" {
			t.Fatal(msg)
		}
		v, errs := s.decode(in, agreeLimits)
		if errs != nil {
			return
		}
		if p := reencodeProblem(s, sch, v); p != "" && knownReencodeBugs[toolName] == "" {
			t.Fatal(p)
		}
	})
}

// FuzzAgreeScheduleTask: the schedule_task decoder agrees with the validator on its plain schema.
func FuzzAgreeScheduleTask(f *testing.F) { fuzzAgree(f, "schedule_task") }

// FuzzAgreeSearchDocs: the search_docs decoder agrees with the validator on its plain schema.
func FuzzAgreeSearchDocs(f *testing.F) { fuzzAgree(f, "search_docs") }

// FuzzAgreeComputeStats: the compute_stats decoder agrees with the validator on its plain schema.
func FuzzAgreeComputeStats(f *testing.F) { fuzzAgree(f, "compute_stats") }

// FuzzAgreeGetStatus: the get_status decoder agrees with the validator on its plain schema.
func FuzzAgreeGetStatus(f *testing.F) { fuzzAgree(f, "get_status") }

// FuzzAgreeCountOutline: the count_outline decoder agrees with the validator on its plain schema.
func FuzzAgreeCountOutline(f *testing.F) { fuzzAgree(f, "count_outline") }

// FuzzAgreeArchiveDocs: the archive_docs decoder agrees with the validator on its plain schema.
func FuzzAgreeArchiveDocs(f *testing.F) { fuzzAgree(f, "archive_docs") }
