package planning

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

func renderSection(t *testing.T, s Strategy, opts ...Option) *prompt.Rendered {
	t.Helper()
	sec, err := Section(s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prompt.New("p", sec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSectionKeyTitleAndToolsInOrder(t *testing.T) {
	sec, err := Section(ReAct)
	if err != nil {
		t.Fatal(err)
	}
	if sec.Key() != "planning" || sec.Title() != "Planning Tools" {
		t.Errorf("key %q title %q", sec.Key(), sec.Title())
	}
	r := renderSection(t, ReAct)
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name())
	}
	want := []string{"planning_setup_plan", "planning_add_step", "planning_update_step", "planning_read_plan"}
	if !cmp.Equal(want, names) {
		t.Errorf("tools:\n%s", cmp.Diff(want, names))
	}
	if !strings.HasPrefix(r.Text, "## Planning Tools\n\nUse the planning tools for multi-step or stateful work") {
		t.Errorf("text starts:\n%.200s", r.Text)
	}
	for _, s := range []string{"planning_setup_plan", "Publish migration guide", "Mark step 1 as done: `planning_update_step({\"step_id\":1,\"status\":\"done\"})`"} {
		if !strings.Contains(r.Text, s) {
			t.Errorf("rendered section lacks %q", s)
		}
	}
}

// Strategies change only the guidance paragraph: replacing it in one strategy's rendering gives another's,
// and the tools are the same.
func TestStrategiesChangeOnlyTheGuidanceText(t *testing.T) {
	base := renderSection(t, ReAct)
	if !strings.Contains(base.Text, strategyGuidance[ReAct]) {
		t.Fatal("ReAct guidance missing from its rendering")
	}
	for _, s := range []Strategy{PlanActReflect, GoalDecomposeRouteSynthesise} {
		r := renderSection(t, s)
		if r.Text == base.Text {
			t.Errorf("%v renders like ReAct", s)
		}
		if got := strings.Replace(r.Text, strategyGuidance[s], strategyGuidance[ReAct], 1); got != base.Text {
			t.Errorf("%v differs beyond its guidance:\n%s", s, cmp.Diff(base.Text, got))
		}
		if !slices.Equal(base.Tools, r.Tools) {
			t.Errorf("%v: tools differ", s)
		}
	}
	wantFirst := map[Strategy]string{
		ReAct:                        "Work in a ReAct loop:",
		PlanActReflect:               "Follow a plan-act-reflect rhythm:",
		GoalDecomposeRouteSynthesise: "Begin by restating the goal in your own words",
	}
	for s, w := range wantFirst {
		tmpl, err := Template(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tmpl, guidanceHeader+w) || !strings.HasSuffix(tmpl, guidanceBody) {
			t.Errorf("%v template:\n%s", s, tmpl)
		}
	}
}

func TestStrategyNamesAndUnknownStrategy(t *testing.T) {
	for _, s := range []Strategy{ReAct, PlanActReflect, GoalDecomposeRouteSynthesise} {
		got, err := ParseStrategy(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %v, %v", s.String(), got, err)
		}
	}
	if got := []string{ReAct.String(), PlanActReflect.String(), GoalDecomposeRouteSynthesise.String(), Strategy(9).String()}; !cmp.Equal(got, []string{"react", "plan_act_reflect", "goal_decompose_route_synthesise", "Strategy(9)"}) {
		t.Errorf("names %v", got)
	}
	if _, err := ParseStrategy("reflex"); err == nil || err.Error() != `planning: unknown strategy "reflex" (known: react, plan_act_reflect, goal_decompose_route_synthesise)` {
		t.Errorf("ParseStrategy error: %v", err)
	}
	if _, err := Section(Strategy(3)); err == nil || err.Error() != "planning: unknown strategy Strategy(3)" {
		t.Errorf("Section error: %v", err)
	}
}

func TestSectionOptions(t *testing.T) {
	sec, err := Section(ReAct, WithKey("plan"), WithTitle("Plan"), WithEnabled(func(prompt.RenderContext) bool { return false }))
	if err != nil {
		t.Fatal(err)
	}
	if sec.Key() != "plan" || sec.Title() != "Plan" {
		t.Errorf("key %q title %q", sec.Key(), sec.Title())
	}
	r, err := prompt.Must("p", sec).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tools) != 0 || strings.Contains(r.Text, "planning") {
		t.Errorf("disabled section rendered: %d tools, text %q", len(r.Tools), r.Text)
	}
	if _, err := Section(ReAct, WithKey("Bad Key")); err == nil {
		t.Error("bad key accepted")
	}
}

// The section's tools work end to end through a rendering's dispatcher.
func TestSectionDispatcherRunsTheTools(t *testing.T) {
	r := renderSection(t, PlanActReflect)
	d := r.Dispatcher(wink.Dispatcher{Session: newDispatcher().Session})
	out := mustOK(t, d, "planning_setup_plan", `{"objective":"o","initial_steps":["a"]}`)
	if out.Output != "Plan initialised with 1 step.\n\nObjective: o\nStatus: active\n\n1 [pending] a" {
		t.Errorf("output %q", out.Output)
	}
}
