package wink_test

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

var registry = testRegistry

type pstep struct {
	name, args string
	want       string // output; "" means any success
	ok         bool
}

func runSteps(t *testing.T, d *wink.Dispatcher, steps []pstep) {
	t.Helper()
	for i, st := range steps {
		out, err := d.Dispatch(context.Background(), wink.Call{ID: "c", Name: st.name, Arguments: []byte(st.args)})
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if out.Success != st.ok || (st.want != "" && out.Output != st.want) {
			t.Fatalf("step %d %s(%s): got %v %q, want %v %q", i, st.name, st.args, out.Success, out.Output, st.ok, st.want)
		}
	}
}

var deps = map[string][]string{"deploy": {"test", "build", "test"}, "test": {"build"}}

func TestSequentialDependencyDecisionsAndTexts(t *testing.T) {
	tests := []struct {
		name  string
		steps []pstep
	}{
		{"nothing done: every missing prerequisite, sorted", []pstep{
			{"deploy", `{}`, "Tool 'deploy' requires: build, test", false}}},
		{"tool without prerequisites is allowed", []pstep{{"build", `{}`, "build done.", true}}},
		{"one done", []pstep{{"build", `{}`, "", true}, {"deploy", `{}`, "Tool 'deploy' requires: test", false}}},
		{"all done", []pstep{{"build", `{}`, "", true}, {"test", `{}`, "", true}, {"deploy", `{}`, "deploy done.", true}}},
		{"a failed prerequisite does not count", []pstep{{"build", `{"fail":true}`, "build failed.", false},
			{"test", `{}`, "Tool 'test' requires: build", false}}},
		{"a denied call does not count", []pstep{{"test", `{}`, "", false}, {"build", `{}`, "", true},
			{"deploy", `{}`, "Tool 'deploy' requires: test", false}}},
	}
	// The same decisions when the policy names more tools than it compares one by one (it then finds
	// them in a map), among them names as long as the ones called.
	many := maps.Clone(deps)
	for i := range 12 {
		n := strconv.Itoa(i)
		many["tool"+n], many["buil"+n] = []string{"tes" + n}, nil
	}
	for _, ds := range []map[string][]string{deps, many} {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				d := &wink.Dispatcher{Registry: registry, Session: session.New(), Policies: []wink.Policy{policy.NewSequentialDependency(ds)}}
				runSteps(t, d, tc.steps)
			})
		}
	}
}

func TestSequentialDependencyStateRollsBackWithTheCall(t *testing.T) {
	p := policy.NewSequentialDependency(deps)
	s := session.New()
	d := &wink.Dispatcher{Registry: registry, Session: s, Policies: []wink.Policy{p}}
	// A later hook fails the build after the policy recorded it.
	d.Hooks.OnResult = func(_ *wink.ToolContext, tool *wink.Tool, _ any, out *wink.Outcome) {
		if tool.Name() == "build" {
			out.Success, out.Output = false, "rejected"
		}
	}
	runSteps(t, d, []pstep{{"build", `{}`, "rejected", false}, {"test", `{}`, "Tool 'test' requires: build", false}})
	if got := p.Completed(s); got != nil {
		t.Errorf("completed = %v after rollback", got)
	}
	// Two policies of the same type keep separate state.
	other := policy.NewSequentialDependency(map[string][]string{"deploy": {"build"}})
	d2 := &wink.Dispatcher{Registry: registry, Session: s, Policies: []wink.Policy{other}}
	runSteps(t, d2, []pstep{{"build", `{}`, "", true}})
	if got := p.Completed(s); got != nil {
		t.Errorf("state shared between policies: %v", got)
	}
	if got := other.Completed(s); !slices.Equal(got, []string{"build"}) {
		t.Errorf("other completed = %v", got)
	}
}

func TestReadBeforeWriteDecisionsAndTexts(t *testing.T) {
	deny := func(p string) string {
		return "File '" + p + "' must be read before overwriting.\n- Call read_file on '" + p + "' first."
	}
	tests := []struct {
		name  string
		steps []pstep
	}{
		{"new file allowed", []pstep{{"write_file", `{"path":"new.txt","content":"x"}`, "Written.", true}}},
		{"existing file not read", []pstep{{"write_file", `{"path":"a.txt","content":"x"}`, deny("a.txt"), false}}},
		{"existing file read first", []pstep{{"read_file", `{"path":"a.txt"}`, "", true},
			{"write_file", `{"path":"a.txt","content":"x"}`, "Written.", true}}},
		{"alias ./a.txt", []pstep{{"write_file", `{"path":"./a.txt","content":"x"}`, deny("a.txt"), false}}},
		{"alias /a.txt", []pstep{{"write_file", `{"path":"/a.txt","content":"x"}`, deny("a.txt"), false}}},
		{"alias b/../a.txt", []pstep{{"write_file", `{"path":"b/../a.txt","content":"x"}`, deny("a.txt"), false}}},
		{"read through an alias counts", []pstep{{"read_file", `{"path":"/dir/../a.txt"}`, "", true},
			{"write_file", `{"path":"./a.txt","content":"x"}`, "Written.", true}}},
		{"file_path field (edit_file)", []pstep{{"edit_file", `{"file_path":"dir/b.txt","old":"b","new":"c"}`, deny("dir/b.txt"), false}}},
		{"edit after read", []pstep{{"read_file", `{"path":"dir/b.txt"}`, "", true},
			{"edit_file", `{"file_path":"dir//b.txt","old":"b","new":"c"}`, "Edited.", true}}},
		{"a failed read does not count", []pstep{{"read_file", `{"path":"zzz/../a.txt/x"}`, "", false},
			{"write_file", `{"path":"a.txt","content":"x"}`, deny("a.txt"), false}}},
		{"written file may be overwritten", []pstep{{"write_file", `{"path":"n.txt","content":"1"}`, "", true},
			{"write_file", `{"path":"n.txt","content":"2"}`, "Written.", true}}},
		{"other tools unaffected", []pstep{{"build", `{}`, "build done.", true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := vfs.NewMemory()
			fs.Write("a.txt", []byte("a"))
			fs.Write("dir/b.txt", []byte("b"))
			d := &wink.Dispatcher{Registry: registry, Session: session.New(), Filesystem: fs,
				Policies: []wink.Policy{policy.NewReadBeforeWrite(policy.ReadBeforeWriteConfig{})}}
			runSteps(t, d, tc.steps)
		})
	}
}

// fixed is a test policy with a fixed decision that counts OnResult calls.
type fixed struct {
	name   string
	dec    wink.Decision
	panics bool
	seen   *[]string
}

func (f *fixed) Name() string { return f.name }
func (f *fixed) Check(*wink.ToolContext, *wink.Tool, any) wink.Decision {
	if f.seen != nil {
		*f.seen = append(*f.seen, f.name)
	}
	if f.panics {
		panic("policy bug")
	}
	return f.dec
}
func (f *fixed) OnResult(*wink.ToolContext, *wink.Tool, any, *wink.Outcome) {}

func TestPolicyOrderCompositionFailClosedAndEvents(t *testing.T) {
	allow := func(n string, seen *[]string) *fixed { return &fixed{name: n, dec: wink.Allow(), seen: seen} }
	deny := func(n, r string, seen *[]string, sugg ...string) *fixed {
		return &fixed{name: n, dec: wink.Deny(r, sugg...), seen: seen}
	}
	tests := []struct {
		name       string
		section    []func(*[]string) wink.Policy
		prompt     []func(*[]string) wink.Policy
		wantOut    string
		wantOK     bool
		wantOrder  []string
		wantEvents []string // policy:allowed
	}{
		{"section before prompt, all allow", []func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return allow("s1", s) }},
			[]func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return allow("p1", s) }},
			"build done.", true, []string{"s1", "p1"}, []string{"s1:true", "p1:true"}},
		{"first denial wins", []func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return deny("s1", "no (s1)", s) }},
			[]func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return deny("p1", "no (p1)", s) }},
			"no (s1)", false, []string{"s1"}, []string{"s1:false"}},
		{"panic denies (fail-closed)", nil,
			[]func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return &fixed{name: "buggy", panics: true, seen: s} }},
			`Policy "buggy" failed while checking the call to tool "build": policy bug`, false, []string{"buggy"}, []string{"buggy:false"}},
		{"empty reason", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return deny("p", "", s) }},
			`Policy denied the call to tool "build".`, false, []string{"p"}, []string{"p:false"}},
		{"suggestions", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy { return deny("p", "Not now.", s, "Wait.", "Ask.") }},
			"Not now.\n- Wait.\n- Ask.", false, []string{"p"}, []string{"p:false"}},
		{"all_of denies with its first member denial", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy {
			return policy.AllOf("all", allow("a", s), deny("b", "no (b)", s), deny("c", "no (c)", s))
		}}, "no (b)", false, []string{"a", "b"}, []string{"all:false"}},
		{"all_of allows", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy {
			return policy.AllOf("all", allow("a", s), allow("b", s))
		}}, "build done.", true, []string{"a", "b"}, []string{"all:true"}},
		{"any_of allows on one member", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy {
			return policy.AnyOf("any", deny("a", "no (a)", s), allow("b", s), deny("c", "no (c)", s))
		}}, "build done.", true, []string{"a", "b"}, []string{"any:true"}},
		{"any_of denies with every reason", nil, []func(*[]string) wink.Policy{func(s *[]string) wink.Policy {
			return policy.AnyOf("any", deny("a", "no (a)", s, "do a"), &fixed{name: "bad", panics: true, seen: s})
		}}, "no (a)\nAlternatively: Policy \"bad\" failed while checking the call to tool \"build\": policy bug\n- do a", false,
			[]string{"a", "bad"}, []string{"any:false"}},
		{"any_of without members denies", nil, []func(*[]string) wink.Policy{func(*[]string) wink.Policy { return policy.AnyOf("none") }},
			`Policy denied the call to tool "build".`, false, nil, []string{"none:false"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var seen []string
			var sec, pr []wink.Policy
			for _, f := range tc.section {
				sec = append(sec, f(&seen))
			}
			for _, f := range tc.prompt {
				pr = append(pr, f(&seen))
			}
			s := session.New()
			d := &wink.Dispatcher{Registry: registry, Session: s, Policies: pr,
				SectionPolicies: func(*wink.Tool) []wink.Policy { return sec }}
			runSteps(t, d, []pstep{{"build", `{}`, tc.wantOut, tc.wantOK}})
			if !slices.Equal(seen, tc.wantOrder) {
				t.Errorf("checked %v, want %v", seen, tc.wantOrder)
			}
			var evs []string
			for _, e := range session.All(s, wink.PolicyLog) {
				evs = append(evs, e.Policy+":"+map[bool]string{true: "true", false: "false"}[e.Allowed])
				if e.Tool != "build" || e.CallID != "c" {
					t.Errorf("event %+v", e)
				}
			}
			if !slices.Equal(evs, tc.wantEvents) {
				t.Errorf("events %v, want %v", evs, tc.wantEvents)
			}
		})
	}
}
