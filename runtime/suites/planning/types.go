package planning

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxTextLength is the longest objective or step title, in characters (Unicode code points), after
// surrounding whitespace is trimmed.
const MaxTextLength = 500

// StepStatus is the progress state of one plan step.
type StepStatus string

// The step statuses, in the order a step normally goes through them.
const (
	// StepPending is a step not started yet; every new step starts here.
	StepPending StepStatus = "pending"
	// StepInProgress is a step being worked on.
	StepInProgress StepStatus = "in_progress"
	// StepDone is a finished step.
	StepDone StepStatus = "done"
)

// PlanStatus is the lifecycle state of a plan.
type PlanStatus string

// The plan statuses.
const (
	// PlanActive is a plan with at least one step not done (or no steps yet).
	PlanActive PlanStatus = "active"
	// PlanCompleted is a plan whose steps are all done; it accepts no further changes.
	PlanCompleted PlanStatus = "completed"
)

// PlanStep is one actionable step of a plan.
type PlanStep struct {
	// StepID is the stable identifier of the step (1, 2, 3...).
	StepID int `json:"step_id"`
	// Title is a concise summary of the work item (at most 500 characters).
	Title string `json:"title"`
	// Status is the step's progress: pending, in_progress or done.
	Status StepStatus `json:"status"`
}

// Render writes the step as "1 [done] Audit guides".
func (s PlanStep) Render() string {
	return strconv.Itoa(s.StepID) + " [" + string(s.Status) + "] " + s.Title
}

// Plan is the session's plan: an objective and its ordered steps.
//
//wink:state
type Plan struct {
	// Objective is what the plan should accomplish.
	Objective string `json:"objective"`
	// Status is the plan's lifecycle state: active or completed.
	Status PlanStatus `json:"status"`
	// Steps are the plan's steps in order.
	Steps []PlanStep `json:"steps"`
}

// Render writes the plan the way WINK does:
//
//	Objective: Publish migration guide
//	Status: active
//
//	1 [done] Audit guides
//	2 [pending] Draft outline
//
// with "<no steps>" in place of the step lines when the plan has none.
func (p Plan) Render() string {
	var b strings.Builder
	b.WriteString("Objective: ")
	b.WriteString(p.Objective)
	b.WriteString("\nStatus: ")
	b.WriteString(string(p.Status))
	b.WriteString("\n\n")
	if len(p.Steps) == 0 {
		b.WriteString("<no steps>")
	}
	for i, s := range p.Steps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Render())
	}
	return b.String()
}

// Validate checks the plan's invariants (the tools' result contract): a trimmed objective and titles of 1-500
// characters, known statuses, step ids that are positive and strictly increasing, and a status that is
// "completed" exactly when the plan has steps and all of them are done. A tool whose resulting plan breaks
// them fails and its call is rolled back; only a plan put into the session by other code can do that.
func (p Plan) Validate() error {
	var errs []error
	if msg := checkText(p.Objective, "Objective"); msg != "" {
		errs = append(errs, errors.New("objective: "+msg))
	}
	prev := 0
	for i, s := range p.Steps {
		at := "steps[" + strconv.Itoa(i) + "]"
		if s.StepID <= prev {
			errs = append(errs, errors.New(at+": step id "+strconv.Itoa(s.StepID)+" does not increase (previous "+strconv.Itoa(prev)+")"))
		}
		prev = s.StepID
		if msg := checkText(s.Title, "Title"); msg != "" {
			errs = append(errs, errors.New(at+".title: "+msg))
		}
		if !s.Status.valid() {
			errs = append(errs, errors.New(at+".status: unknown step status "+strconv.Quote(string(s.Status))))
		}
	}
	if want := statusOf(p.Steps); p.Status != want {
		errs = append(errs, errors.New("status: is "+strconv.Quote(string(p.Status))+", want "+strconv.Quote(string(want))))
	}
	return errors.Join(errs...)
}

func (s StepStatus) valid() bool {
	return s == StepPending || s == StepInProgress || s == StepDone
}

// statusOf is the status a plan with these steps has: completed when there is at least one step and every
// step is done.
func statusOf(steps []PlanStep) PlanStatus {
	if len(steps) == 0 {
		return PlanActive
	}
	for _, s := range steps {
		if s.Status != StepDone {
			return PlanActive
		}
	}
	return PlanCompleted
}

// normalize trims s and checks it; msg is WINK's message ("Title must not be empty.") or "".
func normalize(s, field string) (string, string) {
	t := strings.TrimSpace(s)
	return t, checkText(t, field)
}

// checkText checks an already trimmed text.
func checkText(t, field string) string {
	switch {
	case strings.TrimSpace(t) == "":
		return field + " must not be empty."
	case strings.TrimSpace(t) != t:
		return field + " must not start or end with whitespace."
	case utf8.RuneCountInString(t) > MaxTextLength:
		return field + " must be <= " + strconv.Itoa(MaxTextLength) + " characters."
	}
	return ""
}
