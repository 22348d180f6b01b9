package planning

//go:generate go run github.com/winkgen/wink/cmd/winkgen

import (
	"errors"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// Model-facing messages (product text, tested verbatim).
const (
	msgNoPlan          = "No plan is currently initialised. Call planning_setup_plan first."
	msgNoSteps         = "Provide at least one step to add."
	msgNothingToUpdate = "Provide a new title or status to update a step."
)

func msgNotActive(s PlanStatus) string {
	return "Plan must be active. Current status: " + string(s) + ". Call planning_setup_plan to start a new plan."
}

func msgNoStep(id int) string { return "Step " + strconv.Itoa(id) + " does not exist." }

// steps writes "1 step" or "3 steps".
func steps(n int) string {
	if n == 1 {
		return "1 step"
	}
	return strconv.Itoa(n) + " steps"
}

// errNoSession is returned (as an internal failure) when the dispatcher has no session.
var errNoSession = errors.New("the planning tools need a session: set wink.Dispatcher.Session")

// SetupPlanParams are the arguments of planning_setup_plan.
type SetupPlanParams struct {
	// Objective is what the plan should accomplish (at most 500 characters).
	Objective string `json:"objective" wink:"minLength=1,maxLength=500"`
	// InitialSteps are optional step titles to seed the plan with, in order (each at most 500 characters).
	InitialSteps []string `json:"initial_steps,omitempty" wink:"minLength=1,maxLength=500"`
}

// Validate rejects an objective or step titles made only of whitespace (titles are trimmed).
func (p SetupPlanParams) Validate() error {
	var errs strictjson.Errors
	if strings.TrimSpace(p.Objective) == "" {
		errs.Add("objective", "Objective must not be empty.")
	}
	checkBlankTitles(&errs, "initial_steps", p.InitialSteps)
	return errsOrNil(&errs)
}

// AddStepParams are the arguments of planning_add_step.
type AddStepParams struct {
	// Steps are the titles of the steps to append, in order (each at most 500 characters).
	Steps []string `json:"steps" wink:"minItems=1,minLength=1,maxLength=500"`
}

// Validate rejects step titles made only of whitespace.
func (p AddStepParams) Validate() error {
	var errs strictjson.Errors
	checkBlankTitles(&errs, "steps", p.Steps)
	return errsOrNil(&errs)
}

// UpdateStepParams are the arguments of planning_update_step: the step and at least one change.
type UpdateStepParams struct {
	// StepID is the identifier of the step to update.
	StepID int `json:"step_id" wink:"min=1"`
	// Title is the step's new title (optional; at most 500 characters).
	Title *string `json:"title,omitempty" wink:"minLength=1,maxLength=500"`
	// Status is the step's new status: pending, in_progress or done (optional).
	Status *StepStatus `json:"status,omitempty"`
}

// Validate requires a title or a status, and rejects a title made only of whitespace.
func (p UpdateStepParams) Validate() error {
	var errs strictjson.Errors
	if p.Title == nil && p.Status == nil {
		errs.Add("", msgNothingToUpdate)
	}
	if p.Title != nil && strings.TrimSpace(*p.Title) == "" {
		errs.Add("title", "Title must not be empty.")
	}
	return errsOrNil(&errs)
}

func checkBlankTitles(errs *strictjson.Errors, field string, titles []string) {
	for i, t := range titles {
		if strings.TrimSpace(t) == "" {
			errs.Add(field+"["+strconv.Itoa(i)+"]", "Title must not be empty.")
		}
	}
}

func errsOrNil(errs *strictjson.Errors) error {
	if errs.Len() == 0 {
		return nil
	}
	return errs
}

// SetupPlan creates or replaces the session plan with an objective and optional initial steps.
//
//wink:tool name=planning_setup_plan
//wink:example desc="Create a plan with an objective and two steps" input={"objective":"Publish migration guide","initial_steps":["Audit existing guides","List breaking changes"]} output={"objective":"Publish migration guide","status":"active","steps":[{"step_id":1,"title":"Audit existing guides","status":"pending"},{"step_id":2,"title":"List breaking changes","status":"pending"}]}
func SetupPlan(tc *wink.ToolContext, p SetupPlanParams) (wink.ToolResult[Plan], error) {
	s, err := sessionOf(tc)
	if err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	norm := SetupPlanParams{Objective: strings.TrimSpace(p.Objective), InitialSteps: trimAll(p.InitialSteps)}
	if err := checkTexts(norm.Objective, "objective", norm.InitialSteps, "initial_steps"); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	if err := session.Apply(s, SetupPlanEvent, norm); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	plan, _ := Current(s)
	return wink.OK(plan, "Plan initialised with "+steps(len(norm.InitialSteps))+"."), nil
}

// AddStep appends one or more steps to the active plan.
//
//wink:tool name=planning_add_step
//wink:example desc="Add two follow-up steps" input={"steps":["Draft outline","Review with team"]} output={"objective":"Publish migration guide","status":"active","steps":[{"step_id":1,"title":"Audit guides","status":"done"},{"step_id":2,"title":"Draft outline","status":"pending"},{"step_id":3,"title":"Review with team","status":"pending"}]}
func AddStep(tc *wink.ToolContext, p AddStepParams) (wink.ToolResult[Plan], error) {
	s, err := sessionOf(tc)
	if err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	if _, err := activePlan(s); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	norm := AddStepParams{Steps: trimAll(p.Steps)}
	if len(norm.Steps) == 0 {
		return wink.ToolResult[Plan]{}, wink.NewToolError(msgNoSteps)
	}
	if err := checkTexts("", "", norm.Steps, "steps"); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	if err := session.Apply(s, AddStepEvent, norm); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	plan, _ := Current(s)
	return wink.OK(plan, "Added "+steps(len(norm.Steps))+"."), nil
}

// UpdateStep updates a step's title or status by its ID.
//
//wink:tool name=planning_update_step
//wink:example desc="Mark step 1 as done" input={"step_id":1,"status":"done"} output={"objective":"Publish migration guide","status":"active","steps":[{"step_id":1,"title":"Audit guides","status":"done"},{"step_id":2,"title":"Draft outline","status":"pending"}]}
//wink:example desc="Rename step 2" input={"step_id":2,"title":"Finalize outline"} output={"objective":"Publish migration guide","status":"active","steps":[{"step_id":1,"title":"Audit guides","status":"done"},{"step_id":2,"title":"Finalize outline","status":"pending"}]}
func UpdateStep(tc *wink.ToolContext, p UpdateStepParams) (wink.ToolResult[Plan], error) {
	s, err := sessionOf(tc)
	if err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	plan, err := activePlan(s)
	if err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	norm := UpdateStepParams{StepID: p.StepID, Status: p.Status}
	if p.Title != nil {
		t := strings.TrimSpace(*p.Title)
		if msg := checkText(t, "Title"); msg != "" {
			return wink.ToolResult[Plan]{}, wink.InvalidArguments(strictjson.FieldError{Path: "title", Message: msg})
		}
		norm.Title = &t
	}
	if norm.Title == nil && norm.Status == nil {
		return wink.ToolResult[Plan]{}, wink.NewToolError(msgNothingToUpdate)
	}
	if !hasStep(plan, p.StepID) {
		return wink.ToolResult[Plan]{}, wink.NewToolError(msgNoStep(p.StepID))
	}
	if err := session.Apply(s, UpdateStepEvent, norm); err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	plan, _ = Current(s)
	return wink.OK(plan, "Step "+strconv.Itoa(p.StepID)+" updated."), nil
}

// ReadPlan returns the latest plan snapshot.
//
//wink:tool name=planning_read_plan readonly
//wink:example desc="Inspect the current plan" input={} output={"objective":"Publish migration guide","status":"active","steps":[{"step_id":1,"title":"Audit guides","status":"done"},{"step_id":2,"title":"Draft outline","status":"pending"}]}
func ReadPlan(tc *wink.ToolContext) (wink.ToolResult[Plan], error) {
	s, err := sessionOf(tc)
	if err != nil {
		return wink.ToolResult[Plan]{}, err
	}
	plan, ok := Current(s)
	if !ok {
		return wink.ToolResult[Plan]{}, wink.NewToolError(msgNoPlan)
	}
	if len(plan.Steps) == 0 {
		return wink.OK(plan, "Retrieved the current plan (no steps recorded)."), nil
	}
	return wink.OK(plan, "Retrieved the current plan with "+steps(len(plan.Steps))+"."), nil
}

// sessionOf returns the call's session with the planning reducers installed.
func sessionOf(tc *wink.ToolContext) (*session.Session, error) {
	s := tc.Session()
	if s == nil {
		return nil, errNoSession
	}
	Install(s)
	return s, nil
}

// activePlan returns the session's plan, or the model-facing error when there is none or it is not active.
func activePlan(s *session.Session) (Plan, error) {
	plan, ok := Current(s)
	if !ok {
		return Plan{}, wink.NewToolError(msgNoPlan)
	}
	if plan.Status != PlanActive {
		return Plan{}, wink.NewToolError(msgNotActive(plan.Status))
	}
	return plan, nil
}

func hasStep(p Plan, id int) bool {
	for _, s := range p.Steps {
		if s.StepID == id {
			return true
		}
	}
	return false
}

func trimAll(ts []string) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = strings.TrimSpace(t)
	}
	return out
}

// checkTexts checks trimmed texts (objective only when objField is set), reporting every problem at its JSON
// path with WINK's message, as an argument error the dispatcher renders and rolls back.
func checkTexts(objective, objField string, titles []string, titlesField string) error {
	var errs []strictjson.FieldError
	if objField != "" {
		if msg := checkText(objective, "Objective"); msg != "" {
			errs = append(errs, strictjson.FieldError{Path: objField, Message: msg})
		}
	}
	for i, t := range titles {
		if msg := checkText(t, "Title"); msg != "" {
			errs = append(errs, strictjson.FieldError{Path: titlesField + "[" + strconv.Itoa(i) + "]", Message: msg})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return wink.InvalidArguments(errs...)
}
