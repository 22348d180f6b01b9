package session_test

import (
	"fmt"

	"github.com/winkgen/wink/runtime/session"
)

type Plan struct {
	Objective string
	Steps     []string
}

type AddStep struct{ Title string }

var (
	Plans     = session.NewSlice[Plan]("plan", session.Rollback)
	Calls     = session.NewSlice[string]("tool_invoked", session.NoRollback)
	AddStepEv = session.NewEvent[AddStep]("add_step")
)

func Example() {
	s := session.New(session.WithID("run-1"))
	session.On(s, AddStepEv, Plans, func(v session.View[Plan], e AddStep) (session.Op[Plan], error) {
		p, ok := v.Latest()
		if !ok {
			return session.Unchanged[Plan](), fmt.Errorf("no plan")
		}
		p.Steps = append(p.Steps[:len(p.Steps):len(p.Steps)], e.Title) // never write into the stored value
		return session.Replaced(p), nil
	})
	session.Seed(s, Plans, Plan{Objective: "ship"})

	sn := s.Snapshot() // what the dispatcher does before a tool call
	_ = session.Apply(s, AddStepEv, AddStep{Title: "build"})
	session.Append(s, Calls, "planning_add_step")
	s.Restore(sn) // the tool failed: STATE rolls back, LOG keeps the call

	p, _ := session.Latest(s, Plans)
	fmt.Println(p.Objective, len(p.Steps), session.All(s, Calls))
	// Output: ship 0 [planning_add_step]
}
