package openairesponses_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/internal/callertools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/providers/openairesponses"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// programCall is a function_call item the program call_prog made.
func programCall(i int, name, args string) string {
	id := "call_" + name
	return itemDone(i, `{"type":"function_call","id":"fc_`+name+`","call_id":"`+id+`","name":"`+name+`","arguments":`+q(args)+`,"status":"completed","caller":{"type":"program","caller_id":"call_prog"}}`)
}

// runPrograms runs the loop over callertools against a server whose first turn is a program calling
// each of calls (name, arguments), and returns the requests and the dispatcher's events.
func runPrograms(t *testing.T, cfg openairesponses.Config, calls ...[2]string) ([][]byte, []*wink.ToolInvoked) {
	t.Helper()
	prog := `{"type":"program","id":"prog_1","call_id":"call_prog","code":"...","fingerprint":"fp_1"}`
	items := []string{created, itemDone(0, prog)}
	for i, c := range calls {
		items = append(items, programCall(i+1, c[0], c[1]))
	}
	items = append(items, completed(40, 9))
	s := pt.NewServer(t, pt.Stream(sse(items...)), pt.Stream(sse(created, textDelta("Done."), completed(50, 3))))
	cfg.BaseURL, cfg.Model, cfg.APIKey, cfg.Retry = s.URL, "gpt-5", "k", httpcall.Retry{BaseDelay: time.Millisecond}
	p, err := openairesponses.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var events []*wink.ToolInvoked
	d := &wink.Dispatcher{Registry: wink.MustRegistry(callertools.WinkTools()), Session: session.New(),
		Events: func(ev *wink.ToolInvoked) { events = append(events, ev) }}
	if _, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d}, []loop.Message{loop.UserMessage("go")}); err != nil {
		t.Fatal(err)
	}
	return s.Bodies(), events
}

func functions(t *testing.T, body []byte) map[string]*responses.FunctionToolParam {
	t.Helper()
	fns := map[string]*responses.FunctionToolParam{}
	for _, u := range newParams(t, body).Tools {
		if u.OfFunction != nil {
			fns[u.OfFunction.Name] = u.OfFunction
		}
	}
	return fns
}

func outputs(t *testing.T, body []byte) map[string]string {
	t.Helper()
	outs := map[string]string{}
	for _, it := range inputItems(t, body) {
		if o := it.OfFunctionCallOutput; o != nil {
			outs[o.CallID.Value] = o.Output.OfString.Value
		}
	}
	return outs
}

// A call the provider's program makes is a program's call to the dispatcher: a tool declared for direct
// calls only is refused as from any program (not only by the allowed_callers sent), and events name the
// program.
func TestProviderProgramCallsAreProgramCalls(t *testing.T) {
	callertools.Refunds.Store(0)
	bodies, events := runPrograms(t, openairesponses.Config{Programs: true},
		[2]string{"lookup", `{"id":1}`}, [2]string{"refund", `{"id":2}`})
	outs := outputs(t, bodies[1])
	if got := outs["call_refund"]; !strings.Contains(got, `Tool "refund" cannot be called from a program`) {
		t.Errorf("refund from the provider's program answered %q", got)
	}
	if n := callertools.Refunds.Load(); n != 0 {
		t.Errorf("refund ran %d times from a program", n)
	}
	if got := outs["call_lookup"]; got != `{"id":1,"total":100}` {
		t.Errorf("lookup answered %q", got)
	}
	progs := map[string]string{}
	for _, ev := range events {
		progs[ev.Name] = ev.Program
	}
	if progs["lookup"] != "call_prog" || progs["refund"] != "call_prog" {
		t.Errorf("events' programs: %v", progs)
	}
}

// A tool only programs may call goes out for programs only, and not at all without programmatic calling.
func TestProgramOnlyToolsAreOfferedToProgramsOnly(t *testing.T) {
	bodies, _ := runPrograms(t, openairesponses.Config{Programs: true}, [2]string{"audit", `{"id":1}`})
	fns := functions(t, bodies[0])
	if a := fns["audit"]; a == nil || !slices.Equal(a.AllowedCallers, []string{"programmatic"}) {
		t.Errorf("audit with programs: %+v", a)
	}
	if r := fns["refund"]; r == nil || !slices.Equal(r.AllowedCallers, []string{"direct"}) {
		t.Errorf("refund with programs: %+v", r)
	}
	if got := outputs(t, bodies[1])["call_audit"]; got != `{"id":1,"total":0}` {
		t.Errorf("audit from the program answered %q", got)
	}
	bodies, _ = runPrograms(t, openairesponses.Config{})
	if fns := functions(t, bodies[0]); fns["audit"] != nil || fns["lookup"] == nil {
		t.Errorf("without programs the model is offered %v", slices.Sorted(maps.Keys(fns)))
	}
}

// output_schema describes exactly the output text: sent for the value alone and for a value with a
// message (answered with the value's JSON), not for a value the model reads through its Render method.
func TestOutputSchemaDescribesTheOutput(t *testing.T) {
	bodies, _ := runPrograms(t, openairesponses.Config{Programs: true, OutputSchema: true},
		[2]string{"price", `{"id":3}`}, [2]string{"quote", `{"id":4}`}, [2]string{"label", `{"id":5}`},
		[2]string{"refund", `{"id":6}`})
	fns := functions(t, bodies[0])
	for _, name := range []string{"price", "quote"} {
		got, _ := json.Marshal(fns[name].OutputSchema)
		var want map[string]any
		_ = json.Unmarshal(callertools.WinkQuote.Spec().ResultSchema, &want)
		if w, _ := json.Marshal(want); len(fns[name].OutputSchema) == 0 || string(got) != string(w) {
			t.Errorf("%s output_schema %s, want %s", name, got, w)
		}
	}
	if s := fns["label"].OutputSchema; len(s) != 0 {
		t.Errorf("label (rendered as text) has an output_schema: %v", s)
	}
	outs := outputs(t, bodies[1])
	for id, cents := range map[string]int{"call_price": 300, "call_quote": 400} {
		var p callertools.Price
		dec := json.NewDecoder(strings.NewReader(outs[id]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil || dec.More() || p != (callertools.Price{Cents: cents, Currency: "EUR"}) {
			t.Errorf("%s output %q is not the value its schema describes: %v", id, outs[id], err)
		}
	}
	if got := outs["call_label"]; got != "price: 500 cents" {
		t.Errorf("label output %q", got)
	}
	if got := outs["call_refund"]; !strings.Contains(got, "cannot be called from a program") {
		t.Errorf("refund output %q", got)
	}
}
