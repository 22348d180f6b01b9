package planning

import (
	"errors"
	"strconv"
	"sync"

	"github.com/winkgen/wink/runtime/session"
)

// PlanSlice is the session STATE slice holding the current plan (at most one item). A failed tool call
// restores it; read it with Current. It carries the generated codec (Plan is //wink:state), so a session
// store keeps it: give it to the store (session.NewMemoryStore(planning.PlanSlice), pgstore.New(...)).
var PlanSlice = session.NewSlice[Plan]("planning.plan", session.Rollback, session.WithCodec(WinkPlanCodec))

// The events the planning tools dispatch; their payloads are the tools' params after normalisation. Other
// code may dispatch them too (after Install): the reducers check them and refuse, atomically, what the
// tools would refuse.
var (
	// SetupPlanEvent creates or replaces the plan: objective and initial steps, ids from 1.
	SetupPlanEvent = session.NewEvent[SetupPlanParams]("planning.setup_plan")
	// AddStepEvent appends pending steps to the active plan, numbered after its highest id.
	AddStepEvent = session.NewEvent[AddStepParams]("planning.add_step")
	// UpdateStepEvent changes a step's title and/or status, then recomputes the plan's status.
	UpdateStepEvent = session.NewEvent[UpdateStepParams]("planning.update_step")
)

// installed is a LOG slice (never rolled back) marking sessions whose reducers are registered, so the marker
// lives and dies with the session instead of in a process-wide table.
var installed = session.NewSlice[struct{}]("planning.installed", session.NoRollback)

// installMu serialises Install's check-then-register across goroutines.
var installMu sync.Mutex

// Install registers the planning reducers on s. It is idempotent, and the tools call it themselves on the
// session of their ToolContext; call it directly only to dispatch the events before any tool call.
func Install(s *session.Session) {
	installMu.Lock()
	defer installMu.Unlock()
	if session.Len(s, installed) > 0 {
		return
	}
	session.On(s, SetupPlanEvent, PlanSlice, reduceSetup)
	session.On(s, AddStepEvent, PlanSlice, reduceAdd)
	session.On(s, UpdateStepEvent, PlanSlice, reduceUpdate)
	session.Append(s, installed, struct{}{})
}

// Current returns the session's plan, and false when no plan has been set up.
func Current(s *session.Session) (Plan, bool) {
	return session.Latest(s, PlanSlice)
}

func reduceSetup(_ session.View[Plan], e SetupPlanParams) (session.Op[Plan], error) {
	plan := Plan{Objective: e.Objective, Status: PlanActive, Steps: make([]PlanStep, 0, len(e.InitialSteps))}
	for i, title := range e.InitialSteps {
		plan.Steps = append(plan.Steps, PlanStep{StepID: i + 1, Title: title, Status: StepPending})
	}
	if msg := checkText(e.Objective, "Objective"); msg != "" {
		return session.Unchanged[Plan](), errors.New(msg)
	}
	if err := checkTitles(e.InitialSteps); err != nil {
		return session.Unchanged[Plan](), err
	}
	return session.Replaced(plan), nil
}

func reduceAdd(v session.View[Plan], e AddStepParams) (session.Op[Plan], error) {
	prev, ok := v.Latest()
	if !ok {
		return session.Unchanged[Plan](), errors.New(msgNoPlan)
	}
	if prev.Status != PlanActive {
		return session.Unchanged[Plan](), errors.New(msgNotActive(prev.Status))
	}
	if len(e.Steps) == 0 {
		return session.Unchanged[Plan](), errors.New(msgNoSteps)
	}
	if err := checkTitles(e.Steps); err != nil {
		return session.Unchanged[Plan](), err
	}
	next := 1
	if n := len(prev.Steps); n > 0 {
		next = prev.Steps[n-1].StepID + 1
	}
	steps := make([]PlanStep, len(prev.Steps), len(prev.Steps)+len(e.Steps))
	copy(steps, prev.Steps)
	for _, title := range e.Steps {
		steps = append(steps, PlanStep{StepID: next, Title: title, Status: StepPending})
		next++
	}
	return session.Replaced(Plan{Objective: prev.Objective, Status: PlanActive, Steps: steps}), nil
}

func reduceUpdate(v session.View[Plan], e UpdateStepParams) (session.Op[Plan], error) {
	prev, ok := v.Latest()
	if !ok {
		return session.Unchanged[Plan](), errors.New(msgNoPlan)
	}
	if prev.Status != PlanActive {
		return session.Unchanged[Plan](), errors.New(msgNotActive(prev.Status))
	}
	if e.Title == nil && e.Status == nil {
		return session.Unchanged[Plan](), errors.New(msgNothingToUpdate)
	}
	if e.Title != nil {
		if msg := checkText(*e.Title, "Title"); msg != "" {
			return session.Unchanged[Plan](), errors.New(msg)
		}
	}
	if e.Status != nil && !e.Status.valid() {
		return session.Unchanged[Plan](), errors.New("unknown step status " + strconv.Quote(string(*e.Status)))
	}
	steps := make([]PlanStep, len(prev.Steps))
	copy(steps, prev.Steps)
	found := false
	for i := range steps {
		if steps[i].StepID != e.StepID {
			continue
		}
		found = true
		if e.Title != nil {
			steps[i].Title = *e.Title
		}
		if e.Status != nil {
			steps[i].Status = *e.Status
		}
	}
	if !found {
		return session.Unchanged[Plan](), errors.New(msgNoStep(e.StepID))
	}
	return session.Replaced(Plan{Objective: prev.Objective, Status: statusOf(steps), Steps: steps}), nil
}

// checkTitles checks step titles as the handlers leave them (trimmed).
func checkTitles(titles []string) error {
	for _, t := range titles {
		if msg := checkText(t, "Title"); msg != "" {
			return errors.New(msg)
		}
	}
	return nil
}
