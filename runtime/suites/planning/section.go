package planning

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// Strategy selects the reasoning style the planning section's guidance describes. Strategies change only the
// guidance paragraph; the tools, their rules and the rest of the text are the same for all.
type Strategy uint8

// The strategies, as in WINK's PlanningStrategy.
const (
	// ReAct alternates reasoning bursts, tool calls and observations (the default, the zero value).
	ReAct Strategy = iota
	// PlanActReflect outlines the whole plan first, then acts and reflects after each step.
	PlanActReflect
	// GoalDecomposeRouteSynthesise restates the goal, splits it into sub-problems routed to tools, and
	// synthesises the results.
	GoalDecomposeRouteSynthesise
)

var strategyNames = [...]string{"react", "plan_act_reflect", "goal_decompose_route_synthesise"}

// String returns WINK's name of the strategy ("react", "plan_act_reflect",
// "goal_decompose_route_synthesise"), or "Strategy(N)" for an unknown value.
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return "Strategy(" + strconv.Itoa(int(s)) + ")"
}

// ParseStrategy returns the strategy named name (WINK's names, as String returns them).
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, errors.New("planning: unknown strategy " + strconv.Quote(name) + " (known: react, plan_act_reflect, goal_decompose_route_synthesise)")
}

const guidanceHeader = "Use the planning tools for multi-step or stateful work: keep the objective and its steps in a plan, and keep the plan current as you work.\n\n"

var strategyGuidance = [...]string{
	ReAct: "Work in a ReAct loop: alternate short bursts of reasoning with tool calls, and read each observation before deciding the next action.\n" +
		"After each observation, record it in the plan: mark the step in progress or done, or retitle it with what you learned.\n\n",
	PlanActReflect: "Follow a plan-act-reflect rhythm: outline the entire plan before executing any tools, then work through the steps in order.\n" +
		"After each tool call or completed step, reflect briefly on the result and update the step status; add steps when the reflection reveals missing work.\n\n",
	GoalDecomposeRouteSynthesise: "Begin by restating the goal in your own words to ensure the objective is clear.\n" +
		"Break the goal into concrete sub-problems before routing tools to each one, and record each sub-problem as a plan step.\n" +
		"When every tool has run, synthesise the results into a cohesive answer.\n\n",
}

const guidanceBody = "- Start with `planning_setup_plan` to set an objective and optional initial steps; calling it again replaces the plan.\n" +
	"- Add more steps with `planning_add_step`.\n" +
	"- Update a step's title or status (pending, in_progress, done) with `planning_update_step`.\n" +
	"- Check progress with `planning_read_plan`.\n" +
	"- Step IDs are integers (1, 2, 3...); a new plan numbers its steps from 1.\n" +
	"- Objectives and step titles are trimmed and must be 1-500 characters.\n" +
	"- The plan completes automatically when every step is done; a completed plan accepts no more changes.\n\n" +
	"Skip planning for trivial single-step tasks."

// Template returns the section's markdown body for the strategy: a header, the strategy's guidance
// paragraph, then the tool rules. It contains no placeholders.
func Template(s Strategy) (string, error) {
	if int(s) >= len(strategyGuidance) {
		return "", errors.New("planning: unknown strategy " + s.String())
	}
	return guidanceHeader + strategyGuidance[s] + guidanceBody, nil
}

// Option configures the section Section builds.
type Option func(*prompt.SectionSpec)

// WithKey replaces the section's key ("planning").
func WithKey(key string) Option { return func(s *prompt.SectionSpec) { s.Key = key } }

// WithTitle replaces the section's title ("Planning Tools").
func WithTitle(title string) Option { return func(s *prompt.SectionSpec) { s.Title = title } }

// WithPolicies adds policies governing the planning tools.
func WithPolicies(ps ...wink.Policy) Option {
	return func(s *prompt.SectionSpec) { s.Policies = append(s.Policies, ps...) }
}

// WithEnabled sets the predicate deciding at each render whether the section (and so its tools) is present.
func WithEnabled(enabled func(prompt.RenderContext) bool) Option {
	return func(s *prompt.SectionSpec) { s.Enabled = enabled }
}

// Section returns the planning section: key "planning", title "Planning Tools", the strategy's guidance, and
// the four tools (planning_setup_plan, planning_add_step, planning_update_step, planning_read_plan) in that
// order. The tools install their reducers on the session of each call, so one section serves any number of
// sessions.
func Section(strategy Strategy, opts ...Option) (*prompt.Section, error) {
	tmpl, err := Template(strategy)
	if err != nil {
		return nil, err
	}
	spec := prompt.SectionSpec{
		Key:      "planning",
		Title:    "Planning Tools",
		Template: tmpl,
		Tools:    WinkTools(),
	}
	for _, o := range opts {
		o(&spec)
	}
	return prompt.NewSection(spec)
}
