package planning

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// TestPlanCodecRoundTripsAndReportsCorruptionWithPaths checks the codec winkgen emits for Plan
// (//wink:state): encode then decode gives the plan back, and a corrupt encoding names every problem.
func TestPlanCodecRoundTripsAndReportsCorruptionWithPaths(t *testing.T) {
	for _, p := range []Plan{
		{Objective: "ship", Status: PlanActive, Steps: []PlanStep{{StepID: 1, Title: "one", Status: StepDone}, {StepID: 2, Title: "two", Status: StepPending}}},
		{Objective: "empty", Status: PlanCompleted, Steps: []PlanStep{}},
	} {
		b := WinkPlanCodec.Encode(nil, &p)
		got, err := WinkPlanCodec.Decode(b)
		if err != nil {
			t.Fatalf("decoding %s: %v", b, err)
		}
		if diff := cmp.Diff(p, got); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", b, diff)
		}
	}
	_, err := WinkPlanCodec.Decode([]byte(`{"objective":"x","status":"paused","steps":[{"step_id":"1","title":"t","status":"done","extra":1}]}`))
	if err == nil {
		t.Fatal("a corrupt plan decoded")
	}
	for _, want := range []string{`status: must be one of "active", "completed"; got "paused"`, `steps[0].step_id: expected integer, got string "1"`, `steps[0]: unknown field "extra"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

// TestPlanSurvivesInAStore runs the planning tools on a session in a store, then reads the plan from a
// new Session value with the same ID (another worker, or a restart).
func TestPlanSurvivesInAStore(t *testing.T) {
	st, err := session.NewMemoryStore(PlanSlice)
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Session: session.New(session.WithID("p1"), session.WithStore(st))}
	mustOK(t, d, "planning_setup_plan", `{"objective":"ship","initial_steps":["one","two"]}`)
	mustOK(t, d, "planning_update_step", `{"step_id":1,"status":"done"}`)
	if out := call(t, d, "planning_update_step", `{"step_id":9,"status":"done"}`); out.Success {
		t.Fatal("updating a missing step succeeded")
	}
	other := &wink.Dispatcher{Registry: d.Registry, Session: session.New(session.WithID("p1"), session.WithStore(st))}
	out := mustOK(t, other, "planning_read_plan", `{}`)
	if !strings.Contains(out.Output, "1 [done] one") || !strings.Contains(out.Output, "2 [pending] two") {
		t.Fatalf("the other worker reads:\n%s", out.Output)
	}
}
