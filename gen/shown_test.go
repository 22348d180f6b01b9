package gen

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/gen/testdata/intenums"
	"github.com/winkgen/wink/gen/testdata/omitempty"
	"github.com/winkgen/wink/internal/schemaoracle"
	"github.com/winkgen/wink/runtime/wink"
)

// TestExamplesReachTheModelAsWritten: an example's input and output are what the developer wrote (only
// whitespace removed): "48h" stays "48h", the members keep their order, no default is filled in; the
// decoder still checked them, and the typed example holds what it understood.
func TestExamplesReachTheModelAsWritten(t *testing.T) {
	ex := intenums.WinkAddTask.Spec().Examples
	if len(ex) != 1 {
		t.Fatalf("%d examples", len(ex))
	}
	if got, want := string(ex[0].Input), `{"every":"48h","title":"Water the plants"}`; got != want {
		t.Errorf("input shown as %s, want %s (as written)", got, want)
	}
	if got, want := string(ex[0].Output), `{"due":"48h","priority":2}`; got != want {
		t.Errorf("output shown as %s, want %s (as written)", got, want)
	}
	typed := intenums.WinkAddTaskExamples()[0]
	if typed.Input.Every != 48*time.Hour || typed.Input.Priority != intenums.Medium || typed.Output.Due != 48*time.Hour {
		t.Errorf("the typed example is %+v", typed)
	}
}

// TestIntegerEnumsSayWhatTheirValuesMean: an integer enum's schema description names each value's
// constant and what its doc says, narrowed by a tag enum, for fields and for array items.
func TestIntegerEnumsSayWhatTheirValuesMean(t *testing.T) {
	s := string(intenums.WinkAddTask.Spec().ParamsSchema)
	for _, want := range []string{
		`"description":"Priority of the task. (1 = Low: for tasks that can wait; 2 = Medium: this week; 3 = High: today)"`,
		`"description":"Urgent narrows the priorities to the two highest. (2 = Medium: this week; 3 = High: today)"`,
		`"description":"Level has no docs on its constants. (1 = LevelOne; 2 = LevelTwo)"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the params schema lacks %s:\n%s", want, s)
		}
	}
	if r := string(intenums.WinkAddTask.Spec().ResultSchema); !strings.Contains(r, "(1 = Low: for tasks that can wait; 2 = Medium: this week; 3 = High: today)") {
		t.Errorf("the result schema does not say what the priorities mean:\n%s", r)
	}
}

// TestOmitEmptyFollowsEncodingJSON: the generated encoder writes a result exactly as encoding/json
// marshals it (omitempty and omitzero fields left out, leading ones included, an anonymous struct's too),
// for every single field set, every pair, and random sets; the result schema accepts every encoding and
// does not require the fields that may be left out.
func TestOmitEmptyFollowsEncodingJSON(t *testing.T) {
	tool := omitempty.WinkMakeReport
	sch, err := schemaoracle.Compile("report", tool.Spec().ResultSchema)
	if err != nil {
		t.Fatal(err)
	}
	var required struct {
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tool.Spec().ResultSchema, &required); err != nil {
		t.Fatal(err)
	}
	if want := []string{"kept", "anon"}; !slices.Equal(required.Required, want) {
		t.Errorf("the result schema requires %v, want %v", required.Required, want)
	}
	names := []string{"note", "count", "ok", "tags", "empty_tags", "labels", "empty_labels", "ptr", "nilable",
		"inner", "at", "raw", "list", "empty_list", "anon"}
	sets := [][]string{nil}
	for i, a := range names {
		sets = append(sets, []string{a})
		for _, b := range names[i+1:] {
			sets = append(sets, []string{a, b})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var s []string
		for _, n := range names {
			if r.IntN(2) == 0 {
				s = append(s, n)
			}
		}
		sets = append(sets, s)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(omitempty.WinkTools())}
	for _, fill := range sets {
		var value any
		d.Events = func(inv *wink.ToolInvoked) { value = inv.Value }
		args, _ := json.Marshal(omitempty.ReportParams{Fill: fill})
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: "report", Arguments: args})
		if err != nil || !out.Success {
			t.Fatalf("%v: %v %+v", fill, err, out)
		}
		got, ok := tool.AppendValueJSON(nil, value)
		if !ok {
			t.Fatalf("%v: AppendValueJSON refused %#v", fill, value)
		}
		want, err := json.Marshal(omitempty.Build(fill))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("fill %v:\n got %s\nwant %s (encoding/json)", fill, got, want)
		}
		if ok, msg := schemaoracle.Verdict(sch, got); !ok {
			t.Errorf("fill %v: the result schema refuses %s: %s", fill, got, msg)
		}
	}
}
