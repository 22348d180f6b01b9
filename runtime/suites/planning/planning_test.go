package planning

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

func newDispatcher() *wink.Dispatcher {
	return &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools()), Session: session.New()}
}

func call(t *testing.T, d *wink.Dispatcher, name, args string) wink.Outcome {
	t.Helper()
	out, err := d.Dispatch(context.Background(), wink.Call{ID: "c1", Name: name, Arguments: []byte(args)})
	if err != nil {
		t.Fatalf("%s %s: Dispatch error: %v", name, args, err)
	}
	return out
}

func mustOK(t *testing.T, d *wink.Dispatcher, name, args string) wink.Outcome {
	t.Helper()
	out := call(t, d, name, args)
	if !out.Success {
		t.Fatalf("%s %s failed: %s", name, args, out.Output)
	}
	return out
}

func current(t *testing.T, d *wink.Dispatcher) (Plan, bool) {
	t.Helper()
	return Current(d.Session)
}

func TestSuccessOutputsAreMessagePlusRenderedPlan(t *testing.T) {
	d := newDispatcher()
	steps := []struct{ name, args, want string }{
		{"planning_setup_plan", `{"objective":"  Publish migration guide ","initial_steps":[" Audit guides","Draft outline  "]}`,
			"Plan initialised with 2 steps.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [pending] Audit guides\n2 [pending] Draft outline"},
		{"planning_add_step", `{"steps":["Review with team"]}`,
			"Added 1 step.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [pending] Audit guides\n2 [pending] Draft outline\n3 [pending] Review with team"},
		{"planning_add_step", `{"steps":["Publish","Announce"]}`,
			"Added 2 steps.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [pending] Audit guides\n2 [pending] Draft outline\n3 [pending] Review with team\n4 [pending] Publish\n5 [pending] Announce"},
		{"planning_update_step", `{"step_id":1,"status":"done"}`,
			"Step 1 updated.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [done] Audit guides\n2 [pending] Draft outline\n3 [pending] Review with team\n4 [pending] Publish\n5 [pending] Announce"},
		{"planning_update_step", `{"step_id":2,"title":"  Finalize outline "}`,
			"Step 2 updated.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [done] Audit guides\n2 [pending] Finalize outline\n3 [pending] Review with team\n4 [pending] Publish\n5 [pending] Announce"},
		{"planning_update_step", `{"step_id":3,"title":"Review with leads","status":"in_progress"}`,
			"Step 3 updated.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [done] Audit guides\n2 [pending] Finalize outline\n3 [in_progress] Review with leads\n4 [pending] Publish\n5 [pending] Announce"},
		{"planning_read_plan", `{}`,
			"Retrieved the current plan with 5 steps.\n\nObjective: Publish migration guide\nStatus: active\n\n1 [done] Audit guides\n2 [pending] Finalize outline\n3 [in_progress] Review with leads\n4 [pending] Publish\n5 [pending] Announce"},
		{"planning_setup_plan", `{"objective":"Something else"}`,
			"Plan initialised with 0 steps.\n\nObjective: Something else\nStatus: active\n\n<no steps>"},
		{"planning_read_plan", ``,
			"Retrieved the current plan (no steps recorded).\n\nObjective: Something else\nStatus: active\n\n<no steps>"},
		{"planning_setup_plan", `{"objective":"One","initial_steps":["only"]}`,
			"Plan initialised with 1 step.\n\nObjective: One\nStatus: active\n\n1 [pending] only"},
		{"planning_read_plan", `null`,
			"Retrieved the current plan with 1 step.\n\nObjective: One\nStatus: active\n\n1 [pending] only"},
	}
	for _, s := range steps {
		out := mustOK(t, d, s.name, s.args)
		if out.Output != s.want {
			t.Errorf("%s %s:\n%s", s.name, s.args, cmp.Diff(s.want, out.Output))
		}
	}
}

const (
	setup2 = `{"objective":"Ship","initial_steps":["one","two"]}`
)

func TestFailuresHaveExactMessagesAndLeaveThePlanUnchanged(t *testing.T) {
	long := strings.Repeat("x", 501)
	cases := []struct {
		name       string
		prepare    []string // alternating tool name and args, each must succeed
		tool, args string
		want       string
	}{
		{"read without plan", nil, "planning_read_plan", `{}`,
			"No plan is currently initialised. Call planning_setup_plan first."},
		{"add without plan", nil, "planning_add_step", `{"steps":["a"]}`,
			"No plan is currently initialised. Call planning_setup_plan first."},
		{"update without plan", nil, "planning_update_step", `{"step_id":1,"status":"done"}`,
			"No plan is currently initialised. Call planning_setup_plan first."},
		{"update unknown step", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":9,"status":"done"}`,
			"Step 9 does not exist."},
		{"update nothing", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1}`,
			"Invalid arguments for tool \"planning_update_step\":\n- Provide a new title or status to update a step.\nFix the arguments and call planning_update_step again."},
		{"update nulls are absent", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1,"title":null,"status":null}`,
			"Invalid arguments for tool \"planning_update_step\":\n- Provide a new title or status to update a step.\nFix the arguments and call planning_update_step again."},
		{"update blank title", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1,"title":"   "}`,
			"Invalid arguments for tool \"planning_update_step\":\n- title: Title must not be empty.\nFix the arguments and call planning_update_step again."},
		{"update empty title", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1,"title":""}`,
			"Invalid arguments for tool \"planning_update_step\":\n- title: must be at least 1 character long; got 0\nFix the arguments and call planning_update_step again."},
		{"update title too long", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1,"title":"` + long + `"}`,
			"Invalid arguments for tool \"planning_update_step\":\n- title: must be at most 500 characters long; got 501\nFix the arguments and call planning_update_step again."},
		{"update step id 0", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":0,"status":"done"}`,
			"Invalid arguments for tool \"planning_update_step\":\n- step_id: must be >= 1; got 0\nFix the arguments and call planning_update_step again."},
		{"update bad status", []string{"planning_setup_plan", setup2}, "planning_update_step", `{"step_id":1,"status":"finished"}`,
			"Invalid arguments for tool \"planning_update_step\":\n- status: must be one of \"pending\", \"in_progress\", \"done\"; got \"finished\"\nFix the arguments and call planning_update_step again."},
		{"setup blank objective and step", []string{"planning_setup_plan", setup2}, "planning_setup_plan", `{"objective":" \t","initial_steps":["ok","  "]}`,
			"Invalid arguments for tool \"planning_setup_plan\":\n- objective: Objective must not be empty.\n- initial_steps[1]: Title must not be empty.\nFix the arguments and call planning_setup_plan again."},
		{"setup objective too long", []string{"planning_setup_plan", setup2}, "planning_setup_plan", `{"objective":"` + long + `"}`,
			"Invalid arguments for tool \"planning_setup_plan\":\n- objective: must be at most 500 characters long; got 501\nFix the arguments and call planning_setup_plan again."},
		{"setup missing objective", nil, "planning_setup_plan", `{"initial_steps":["a"]}`,
			"Invalid arguments for tool \"planning_setup_plan\":\n- objective: missing required field\nFix the arguments and call planning_setup_plan again."},
		{"add blank titles", []string{"planning_setup_plan", setup2}, "planning_add_step", `{"steps":["a"," ","\n"]}`,
			"Invalid arguments for tool \"planning_add_step\":\n- steps[1]: Title must not be empty.\n- steps[2]: Title must not be empty.\nFix the arguments and call planning_add_step again."},
		{"add no steps", []string{"planning_setup_plan", setup2}, "planning_add_step", `{"steps":[]}`,
			"Invalid arguments for tool \"planning_add_step\":\n- steps: must contain at least 1 item; got 0\nFix the arguments and call planning_add_step again."},
		{"add title too long", []string{"planning_setup_plan", setup2}, "planning_add_step", `{"steps":["a","` + long + `"]}`,
			"Invalid arguments for tool \"planning_add_step\":\n- steps[1]: must be at most 500 characters long; got 501\nFix the arguments and call planning_add_step again."},
		{"add to completed plan", []string{"planning_setup_plan", `{"objective":"Ship","initial_steps":["one"]}`, "planning_update_step", `{"step_id":1,"status":"done"}`},
			"planning_add_step", `{"steps":["more"]}`,
			"Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan."},
		{"update completed plan", []string{"planning_setup_plan", `{"objective":"Ship","initial_steps":["one"]}`, "planning_update_step", `{"step_id":1,"status":"done"}`},
			"planning_update_step", `{"step_id":1,"status":"pending"}`,
			"Plan must be active. Current status: completed. Call planning_setup_plan to start a new plan."},
		{"read plan with arguments", nil, "planning_read_plan", `{"verbose":true}`,
			"Invalid arguments for tool \"planning_read_plan\":\n- unknown field \"verbose\"; this tool takes no arguments\nFix the arguments and call planning_read_plan again."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDispatcher()
			for i := 0; i < len(c.prepare); i += 2 {
				mustOK(t, d, c.prepare[i], c.prepare[i+1])
			}
			before, hadPlan := current(t, d)
			out := call(t, d, c.tool, c.args)
			if out.Success {
				t.Fatalf("succeeded: %s", out.Output)
			}
			if out.Output != c.want {
				t.Errorf("output:\n%s", cmp.Diff(c.want, out.Output))
			}
			after, hasPlan := current(t, d)
			if hadPlan != hasPlan || !cmp.Equal(before, after) {
				t.Errorf("plan changed by a failed call:\n%s", cmp.Diff(before, after))
			}
		})
	}
}

// A failure after the plan was mutated (the result contract rejects the plan the reducer produced) restores
// the plan as it was before the call.
func TestFailureAfterMutationRollsThePlanBack(t *testing.T) {
	d := newDispatcher()
	corrupt := Plan{Objective: "Ship", Status: PlanActive, Steps: []PlanStep{
		{StepID: 1, Title: "one", Status: StepPending},
		{StepID: 2, Title: " padded ", Status: StepPending}, // put there by other code, not by the tools
	}}
	session.Seed(d.Session, PlanSlice, corrupt)
	out := call(t, d, "planning_update_step", `{"step_id":1,"status":"done"}`)
	want := `Tool "planning_update_step" returned an invalid result: steps[1].title: Title must not start or end with whitespace.`
	if out.Success || out.Output != want {
		t.Fatalf("got success=%v output:\n%s", out.Success, cmp.Diff(want, out.Output))
	}
	got, _ := Current(d.Session)
	if !cmp.Equal(corrupt, got) {
		t.Errorf("plan not rolled back:\n%s", cmp.Diff(corrupt, got))
	}
	// The reducer did run: without the contract violation the same call succeeds.
	session.Seed(d.Session, PlanSlice, Plan{Objective: "Ship", Status: PlanActive, Steps: []PlanStep{{StepID: 1, Title: "one", Status: StepPending}}})
	if out := call(t, d, "planning_update_step", `{"step_id":1,"status":"done"}`); !out.Success {
		t.Fatalf("valid update failed: %s", out.Output)
	}
}

// A call that succeeds in its handler but is failed afterwards (here by an OnResult hook) leaves no trace in
// the plan: the plan lives in a STATE slice, mutated only through the session.
func TestCallFailedAfterTheHandlerLeavesThePlanAsItWas(t *testing.T) {
	d := newDispatcher()
	mustOK(t, d, "planning_setup_plan", setup2)
	before, _ := current(t, d)
	d.Hooks.OnResult = func(_ *wink.ToolContext, _ *wink.Tool, _ any, out *wink.Outcome) {
		out.Success = false
		out.Output = "refused"
	}
	for _, c := range [][2]string{
		{"planning_add_step", `{"steps":["three"]}`},
		{"planning_update_step", `{"step_id":2,"status":"done","title":"TWO"}`},
		{"planning_setup_plan", `{"objective":"Other"}`},
	} {
		if out := call(t, d, c[0], c[1]); out.Success {
			t.Fatalf("%s: call not failed", c[0])
		}
		after, _ := current(t, d)
		if !cmp.Equal(before, after) {
			t.Errorf("%s: plan changed:\n%s", c[0], cmp.Diff(before, after))
		}
	}
}

func TestStepIDsIncreaseAndAreNeverReusedWithinAPlan(t *testing.T) {
	d := newDispatcher()
	mustOK(t, d, "planning_setup_plan", `{"objective":"Ship","initial_steps":["a","b"]}`)
	mustOK(t, d, "planning_add_step", `{"steps":["c"]}`)
	mustOK(t, d, "planning_update_step", `{"step_id":3,"title":"c2","status":"done"}`)
	mustOK(t, d, "planning_add_step", `{"steps":["d","e"]}`)
	// A failed add (rolled back) must not consume ids.
	if out := call(t, d, "planning_add_step", `{"steps":[" "]}`); out.Success {
		t.Fatal("blank step accepted")
	}
	mustOK(t, d, "planning_add_step", `{"steps":["f"]}`)
	plan, _ := current(t, d)
	var ids []int
	for _, s := range plan.Steps {
		ids = append(ids, s.StepID)
	}
	if want := []int{1, 2, 3, 4, 5, 6}; !cmp.Equal(want, ids) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	// As in WINK, a replaced plan is a new plan: its steps are numbered from 1.
	mustOK(t, d, "planning_setup_plan", `{"objective":"Next","initial_steps":["x"]}`)
	mustOK(t, d, "planning_add_step", `{"steps":["y"]}`)
	plan, _ = current(t, d)
	want := []PlanStep{{1, "x", StepPending}, {2, "y", StepPending}}
	if !cmp.Equal(want, plan.Steps) {
		t.Errorf("steps after replace:\n%s", cmp.Diff(want, plan.Steps))
	}
}

func TestPlanCompletesWhenEveryStepIsDone(t *testing.T) {
	d := newDispatcher()
	mustOK(t, d, "planning_setup_plan", setup2)
	out := mustOK(t, d, "planning_update_step", `{"step_id":1,"status":"done"}`)
	if !strings.Contains(out.Output, "Status: active") {
		t.Errorf("one of two done: %s", out.Output)
	}
	mustOK(t, d, "planning_update_step", `{"step_id":2,"status":"in_progress"}`)
	out = mustOK(t, d, "planning_update_step", `{"step_id":2,"status":"done"}`)
	want := "Step 2 updated.\n\nObjective: Ship\nStatus: completed\n\n1 [done] one\n2 [done] two"
	if out.Output != want {
		t.Errorf("output:\n%s", cmp.Diff(want, out.Output))
	}
	plan, _ := current(t, d)
	if plan.Status != PlanCompleted {
		t.Errorf("status = %q", plan.Status)
	}
	// A plan without steps is active, not completed.
	mustOK(t, d, "planning_setup_plan", `{"objective":"Empty"}`)
	if plan, _ := current(t, d); plan.Status != PlanActive {
		t.Errorf("empty plan status = %q", plan.Status)
	}
}

func TestRenderFormat(t *testing.T) {
	cases := []struct {
		plan Plan
		want string
	}{
		{Plan{Objective: "o", Status: PlanCompleted, Steps: []PlanStep{{1, "one", StepDone}}}, "Objective: o\nStatus: completed\n\n1 [done] one"},
		{Plan{Objective: "o", Status: PlanActive, Steps: []PlanStep{{1, "one", StepDone}, {7, "seven", StepInProgress}}}, "Objective: o\nStatus: active\n\n1 [done] one\n7 [in_progress] seven"},
		{Plan{Objective: "o", Status: PlanActive}, "Objective: o\nStatus: active\n\n<no steps>"},
	}
	for _, c := range cases {
		if got := c.plan.Render(); got != c.want {
			t.Errorf("Render:\n%s", cmp.Diff(c.want, got))
		}
	}
}

// The handler re-checks lengths after trimming (a direct call bypasses the decoder's maxLength), with WINK's
// message, as an argument error at the item's path.
func TestHandlerRejectsOverlongTextsWithWINKMessage(t *testing.T) {
	d := newDispatcher()
	tc := d.ToolContext(context.Background(), "planning_setup_plan", "c1")
	_, err := SetupPlan(tc, SetupPlanParams{Objective: strings.Repeat("é", 501), InitialSteps: []string{"ok", strings.Repeat("a", 501)}})
	var ae *wink.ArgumentsError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want *wink.ArgumentsError", err)
	}
	want := []string{"objective: Objective must be <= 500 characters.", "initial_steps[1]: Title must be <= 500 characters."}
	if got := ae.Errors.Lines(); !cmp.Equal(want, got) {
		t.Errorf("lines:\n%s", cmp.Diff(want, got))
	}
	// 500 characters (not bytes) after trimming are fine.
	res, err := SetupPlan(tc, SetupPlanParams{Objective: "  " + strings.Repeat("é", 500) + "  "})
	if err != nil || !res.Success || len([]rune(res.Value.Objective)) != 500 {
		t.Fatalf("500 runes refused: %v %+v", err, res)
	}
}

func TestWithoutSessionTheToolsFail(t *testing.T) {
	d := &wink.Dispatcher{Registry: wink.MustRegistry(WinkTools())}
	out := call(t, d, "planning_read_plan", `{}`)
	want := `Tool "planning_read_plan" failed: the planning tools need a session: set wink.Dispatcher.Session`
	if out.Success || out.Output != want {
		t.Errorf("output:\n%s", cmp.Diff(want, out.Output))
	}
}

func TestInstallIsIdempotentAndEventsAreChecked(t *testing.T) {
	s := session.New()
	Install(s)
	Install(s)
	if err := session.Apply(s, SetupPlanEvent, SetupPlanParams{Objective: "o", InitialSteps: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := session.Apply(s, AddStepEvent, AddStepParams{Steps: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	plan, _ := Current(s)
	if len(plan.Steps) != 2 {
		t.Fatalf("reducers registered twice? steps = %v", plan.Steps)
	}
	title := " b "
	bad := []struct {
		name string
		err  error
		want string
	}{
		{"untrimmed title", session.Apply(s, AddStepEvent, AddStepParams{Steps: []string{"ok", " x"}}), "Title must not start or end with whitespace."},
		{"no steps", session.Apply(s, AddStepEvent, AddStepParams{}), msgNoSteps},
		{"unknown step", session.Apply(s, UpdateStepEvent, UpdateStepParams{StepID: 5, Status: new(StepDone)}), "Step 5 does not exist."},
		{"bad title", session.Apply(s, UpdateStepEvent, UpdateStepParams{StepID: 1, Title: &title}), "Title must not start or end with whitespace."},
		{"empty objective", session.Apply(s, SetupPlanEvent, SetupPlanParams{}), "Objective must not be empty."},
	}
	for _, b := range bad {
		var de *session.ApplyError
		if !errors.As(b.err, &de) || de.Err.Error() != b.want {
			t.Errorf("%s: err = %v, want an ApplyError with %q", b.name, b.err, b.want)
		}
	}
	if after, _ := Current(s); !cmp.Equal(plan, after) {
		t.Errorf("refused events changed the plan:\n%s", cmp.Diff(plan, after))
	}
}
