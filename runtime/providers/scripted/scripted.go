package scripted

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// Script is a parsed transcript: the model turns to replay, in order.
type Script struct {
	// Name is the file name used in messages.
	Name string
	// Tools are the tool names the loop must offer, in order; nil means unchecked.
	Tools []string
	// Turns are the model's turns.
	Turns []Turn
}

// Turn is one scripted model response.
type Turn struct {
	// Title is the text after "turn": a caption for readers, never sent to the loop.
	Title string
	// Line is the line of the "turn" directive.
	Line int
	// Text is the model's text: the "text" lines joined with newlines.
	Text string
	// Calls are the tool calls, in order.
	Calls []Call
	// Usage is the usage the response reports.
	Usage loop.Usage
	// Stop is the stop reason the response reports.
	Stop string
}

// Call is one scripted tool call and what its result must look like.
type Call struct {
	wink.Call
	// Line is the line of the "call" directive.
	Line int
	// Expect, when set, is checked against the call's result.
	Expect *Expect
}

// Expect is an expectation on a call's result.
type Expect struct {
	// Status is "ok" (success), "fail" (failure) or "replayed" (success replayed from the ledger).
	Status string
	// Contains must occur in the result's output ("" checks the status only).
	Contains string
	// Line is the line of the "expect" directive.
	Line int
}

// Load reads and parses the transcript file at path.
func Load(path string) (*Script, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

const directives = "tools, turn, text, call, expect, usage, stop"

// Parse parses a transcript; name is used in error messages ("name:line: ..."). All problems are
// reported at once.
func Parse(name string, src []byte) (*Script, error) {
	s := &Script{Name: name}
	var errs []error
	fail := func(line int, msg string) {
		errs = append(errs, errors.New(name+":"+strconv.Itoa(line)+": "+msg))
	}
	var cur *Turn
	hasText := false
	callN := 0
	for i, raw := range strings.Split(string(src), "\n") {
		line := i + 1
		l := strings.TrimLeft(strings.TrimSuffix(raw, "\r"), " \t")
		if l == "" || l[0] == '#' {
			continue
		}
		kw, rest, _ := strings.Cut(l, " ")
		if kw == "turn" {
			s.Turns = append(s.Turns, Turn{Title: strings.TrimSpace(rest), Line: line})
			cur, hasText = &s.Turns[len(s.Turns)-1], false
			continue
		}
		if kw == "tools" {
			if cur != nil || s.Tools != nil {
				fail(line, "\"tools\" must come once, before the first turn")
				continue
			}
			s.Tools = strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
			if s.Tools == nil {
				s.Tools = []string{}
			}
			continue
		}
		if !slices.Contains([]string{"text", "call", "expect", "usage", "stop"}, kw) {
			fail(line, "unknown directive "+strconv.Quote(kw)+" (want "+directives+")")
			continue
		}
		if cur == nil {
			fail(line, strconv.Quote(kw)+" before the first \"turn\"")
			continue
		}
		switch kw {
		case "text":
			if hasText {
				cur.Text += "\n"
			}
			cur.Text += rest
			hasText = true
		case "call":
			rest = strings.TrimSpace(rest)
			tool, args, _ := strings.Cut(rest, " ")
			if tool == "" {
				fail(line, "\"call\" needs a tool name")
				continue
			}
			callN++
			cur.Calls = append(cur.Calls, Call{Call: wink.Call{ID: "call_" + strconv.Itoa(callN), Name: tool, Arguments: []byte(strings.TrimSpace(args))}, Line: line})
		case "expect":
			status, contains, _ := strings.Cut(strings.TrimSpace(rest), " ")
			if status != "ok" && status != "fail" && status != "replayed" {
				fail(line, "\"expect\" needs a status: ok, fail or replayed; got "+strconv.Quote(status))
				continue
			}
			if len(cur.Calls) == 0 {
				fail(line, "\"expect\" must follow a \"call\" of its turn")
				continue
			}
			c := &cur.Calls[len(cur.Calls)-1]
			if c.Expect != nil {
				fail(line, "second \"expect\" for the call of line "+strconv.Itoa(c.Line))
				continue
			}
			c.Expect = &Expect{Status: status, Contains: strings.TrimSpace(contains), Line: line}
		case "usage":
			f := strings.Fields(rest)
			in, err1 := atoi(f, 0)
			out, err2 := atoi(f, 1)
			if len(f) != 2 || err1 != nil || err2 != nil {
				fail(line, "\"usage\" needs two token counts: input output")
				continue
			}
			cur.Usage = loop.Usage{Input: in, Output: out}
		case "stop":
			cur.Stop = strings.TrimSpace(rest)
		}
	}
	if len(s.Turns) == 0 && len(errs) == 0 {
		fail(1, "no turns")
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.Stop == "" {
			t.Stop = "stop"
			if len(t.Calls) > 0 {
				t.Stop = "tool_calls"
			}
		}
	}
	return s, nil
}

func atoi(f []string, i int) (int, error) {
	if i >= len(f) {
		return 0, errors.New("missing")
	}
	n, err := strconv.Atoi(f[i])
	if err == nil && n < 0 {
		err = errors.New("negative")
	}
	return n, err
}

// Provider replays a Script as a loop.Provider. It is safe for concurrent use, though a loop calls it
// from one goroutine.
type Provider struct {
	script *Script
	mu     sync.Mutex
	next   int
}

// New returns a provider replaying s from its first turn.
func New(s *Script) *Provider { return &Provider{script: s} }

// Script returns the script being replayed.
func (p *Provider) Script() *Script { return p.script }

// Played returns the number of turns replayed so far.
func (p *Provider) Played() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.next
}

// Complete returns the next scripted turn. Before that it checks the request: the offered tool names
// must equal Script.Tools (when set), and every expectation of the previous turn's calls must hold on
// the results in req.Messages. A script with no turn left is an error.
func (p *Provider) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	if err := ctx.Err(); err != nil {
		return loop.Response{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.script
	n := p.next + 1
	if p.next >= len(s.Turns) {
		return loop.Response{}, errors.New("scripted: " + s.Name + " has " + strconv.Itoa(len(s.Turns)) + " turns; the loop asked for turn " + strconv.Itoa(n))
	}
	if s.Tools != nil {
		offered := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			offered[i] = t.Name()
		}
		if !slices.Equal(offered, s.Tools) {
			return loop.Response{}, errors.New("scripted: turn " + strconv.Itoa(n) + ": the loop offers tools [" + strings.Join(offered, " ") + "], " + s.Name + " expects [" + strings.Join(s.Tools, " ") + "]")
		}
	}
	if p.next > 0 {
		if err := s.check(p.next-1, req.Messages); err != nil {
			return loop.Response{}, err
		}
	}
	t := &s.Turns[p.next]
	p.next++
	resp := loop.Response{Text: t.Text, Usage: t.Usage, Stop: t.Stop}
	for _, c := range t.Calls {
		resp.ToolCalls = append(resp.ToolCalls, wink.Call{ID: c.ID, Name: c.Name, Arguments: slices.Clone(c.Arguments)})
	}
	return resp, nil
}

// Verify checks that every turn was played and that every expectation holds on the results in
// messages (a run's Result.Messages); it catches what Complete cannot see, the last turn's results.
func (p *Provider) Verify(messages []loop.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.script
	if p.next < len(s.Turns) {
		return errors.New("scripted: " + strconv.Itoa(p.next) + " of " + strconv.Itoa(len(s.Turns)) + " turns played; next unplayed turn at " + s.Name + ":" + strconv.Itoa(s.Turns[p.next].Line))
	}
	var errs []error
	for i := range s.Turns {
		errs = append(errs, s.check(i, messages))
	}
	return errors.Join(errs...)
}

// check verifies the expectations of turn i against the tool messages in msgs.
func (s *Script) check(i int, msgs []loop.Message) error {
	var errs []error
	for _, c := range s.Turns[i].Calls {
		if c.Expect == nil {
			continue
		}
		where := "scripted: " + s.Name + ":" + strconv.Itoa(c.Expect.Line) + ": call " + c.ID + " (" + c.Name + ")"
		idx := slices.IndexFunc(msgs, func(m loop.Message) bool { return m.Role == loop.RoleTool && m.Result.CallID == c.ID })
		if idx < 0 {
			errs = append(errs, errors.New(where+": no result"))
			continue
		}
		r := msgs[idx].Result
		got := "success"
		switch {
		case !r.Success:
			got = "failure"
		case r.Replayed:
			got = "replayed success"
		}
		want := map[string]string{"ok": "success", "fail": "failure", "replayed": "replayed success"}[c.Expect.Status]
		if got != want && (want != "success" || !r.Success) { // "ok" accepts a replayed success too
			errs = append(errs, errors.New(where+": want a "+want+", got a "+got+": "+strconv.Quote(r.Output)))
			continue
		}
		if !strings.Contains(r.Output, c.Expect.Contains) {
			errs = append(errs, errors.New(where+": result does not contain "+strconv.Quote(c.Expect.Contains)+": "+strconv.Quote(r.Output)))
		}
	}
	return errors.Join(errs...)
}
