package scripted_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// tool builds a parameterless tool by hand (no generator needed): ok tools answer "<name>: done",
// others fail with "<name>: broken".
func tool(name string, ok bool) *wink.Tool {
	return wink.NewTool(wink.Spec{Name: name, Description: "Test tool."}, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode:       func(d *strictjson.Decoder, p *wink.NoParams) { wink.DecodeNoParams(d, p) },
		EncodeResult: wink.EncodeNoValue,
		Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
			if !ok {
				return wink.Failure[wink.NoValue](name + ": broken"), nil
			}
			return wink.Done[wink.NoValue](name + ": done"), nil
		},
	})
}

func dispatcher(t *testing.T) *wink.Dispatcher {
	t.Helper()
	reg, err := wink.NewRegistry([]*wink.Tool{tool("ping", true), tool("broken", false)})
	if err != nil {
		t.Fatal(err)
	}
	return &wink.Dispatcher{Registry: reg}
}

const good = `# a comment
tools ping, broken

turn First, two calls
text Let me look.
text Second line.
call ping
expect ok ping: done
call broken {"x": 1}
expect fail broken
usage 120 30

  turn
  text
  text All done.
  stop end_turn
`

func TestParseReadsEveryDirective(t *testing.T) {
	s, err := scripted.Parse("t.txt", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := &scripted.Script{
		Name:  "t.txt",
		Tools: []string{"ping", "broken"},
		Turns: []scripted.Turn{
			{Title: "First, two calls", Line: 4, Text: "Let me look.\nSecond line.", Usage: loop.Usage{Input: 120, Output: 30}, Stop: "tool_calls",
				Calls: []scripted.Call{
					{Call: wink.Call{ID: "call_1", Name: "ping", Arguments: []byte{}}, Line: 7, Expect: &scripted.Expect{Status: "ok", Contains: "ping: done", Line: 8}},
					{Call: wink.Call{ID: "call_2", Name: "broken", Arguments: []byte(`{"x": 1}`)}, Line: 9, Expect: &scripted.Expect{Status: "fail", Contains: "broken", Line: 10}},
				}},
			{Line: 13, Text: "\nAll done.", Stop: "end_turn"},
		},
	}
	if diff := cmp.Diff(want, s, sameBlocks); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseReportsEveryProblemWithItsLine(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"empty", "# nothing\n", "s.txt:1: no turns"},
		{"unknown directive", "turn\nsay hi\n", `s.txt:2: unknown directive "say" (want tools, turn, text, call, expect, usage, stop)`},
		{"before a turn", "text hi\nturn\n", `s.txt:1: "text" before the first "turn"`},
		{"tools after a turn", "turn\ntools a\n", `s.txt:2: "tools" must come once, before the first turn`},
		{"tools twice", "tools a\ntools b\nturn\n", `s.txt:2: "tools" must come once, before the first turn`},
		{"call without a name", "turn\ncall\n", `s.txt:2: "call" needs a tool name`},
		{"expect without a call", "turn\nexpect ok x\n", `s.txt:2: "expect" must follow a "call" of its turn`},
		{"expect with a bad status", "turn\ncall a\nexpect good\n", `s.txt:3: "expect" needs a status: ok, fail or replayed; got "good"`},
		{"two expects", "turn\ncall a\nexpect ok\nexpect ok\n", `s.txt:4: second "expect" for the call of line 2`},
		{"bad usage", "turn\nusage 1\n", `s.txt:2: "usage" needs two token counts: input output`},
		{"negative usage", "turn\nusage 1 -2\n", `s.txt:2: "usage" needs two token counts: input output`},
		{"all at once", "turn\nusage x y\nfoo\n", "s.txt:2: \"usage\" needs two token counts: input output\ns.txt:3: unknown directive \"foo\" (want tools, turn, text, call, expect, usage, stop)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scripted.Parse("s.txt", []byte(c.src))
			if err == nil || err.Error() != c.want {
				t.Errorf("err = %v\nwant %s", err, c.want)
			}
		})
	}
}

func run(t *testing.T, src string) (*scripted.Provider, loop.Result, error) {
	t.Helper()
	s, err := scripted.Parse("s.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(s)
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t)}, []loop.Message{loop.UserMessage("go")})
	return p, res, err
}

func TestProviderReplaysTheScriptThroughTheLoop(t *testing.T) {
	p, res, err := run(t, good)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := p.Verify(res.Messages); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if res.Text != "\nAll done." || res.Turns != 2 || p.Played() != 2 || res.Usage.Total != 150 {
		t.Errorf("text=%q turns=%d played=%d usage=%+v", res.Text, res.Turns, p.Played(), res.Usage)
	}
	want := []loop.Message{
		{Role: loop.RoleUser, Text: "go"},
		{Role: loop.RoleAssistant, Text: "Let me look.\nSecond line.", ToolCalls: []wink.Call{
			{ID: "call_1", Name: "ping", Arguments: []byte{}}, {ID: "call_2", Name: "broken", Arguments: []byte(`{"x": 1}`)}}},
		{Role: loop.RoleTool, Result: wink.Outcome{CallID: "call_1", Name: "ping", Success: true, Message: "ping: done", Output: "ping: done"}},
		{Role: loop.RoleTool, Result: wink.Outcome{CallID: "call_2", Name: "broken", Message: "Invalid arguments for tool \"broken\":\n- unknown field \"x\"; this tool takes no arguments\nFix the arguments and call broken again.", Output: "Invalid arguments for tool \"broken\":\n- unknown field \"x\"; this tool takes no arguments\nFix the arguments and call broken again."}},
		{Role: loop.RoleAssistant, Text: "\nAll done."},
	}
	if diff := cmp.Diff(want, res.Messages, sameBlocks); diff != "" {
		t.Errorf("Messages (-want +got):\n%s", diff)
	}
}

func TestProviderChecksExpectationsBeforeTheNextTurn(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"wrong status", "turn\ncall broken\nexpect ok\nturn\n",
			`loop: turn 2: provider: scripted: s.txt:3: call call_1 (broken): want a success, got a failure: "broken: broken"`},
		{"missing text", "turn\ncall ping\nexpect ok pong\nturn\n",
			`loop: turn 2: provider: scripted: s.txt:3: call call_1 (ping): result does not contain "pong": "ping: done"`},
		{"not replayed", "turn\ncall ping\nexpect replayed\nturn\n",
			`loop: turn 2: provider: scripted: s.txt:3: call call_1 (ping): want a replayed success, got a success: "ping: done"`},
		{"tools differ", "tools ping\nturn\n",
			`loop: turn 1: provider: scripted: turn 1: the loop offers tools [ping broken], s.txt expects [ping]`},
		{"exhausted", "turn\ncall ping\n",
			`loop: turn 2: provider: scripted: s.txt has 1 turns; the loop asked for turn 2`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := run(t, c.src)
			if err == nil || err.Error() != c.want {
				t.Errorf("err = %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestVerifyChecksUnplayedTurnsAndTheLastTurnsResults(t *testing.T) {
	s, err := scripted.Parse("s.txt", []byte("turn\ncall broken\nexpect ok\nturn\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(s)
	if err := p.Verify(nil); err == nil || err.Error() != "scripted: 0 of 2 turns played; next unplayed turn at s.txt:1" {
		t.Errorf("Verify before playing = %v", err)
	}
	// A run stopped after the first turn (MaxTurns 1) leaves the last played turn's results to Verify.
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t), MaxTurns: 1}, nil)
	if !errors.Is(err, loop.ErrMaxTurns) {
		t.Fatalf("Run: %v", err)
	}
	want := "scripted: 1 of 2 turns played; next unplayed turn at s.txt:4"
	if err := p.Verify(res.Messages); err == nil || err.Error() != want {
		t.Errorf("Verify = %v, want %s", err, want)
	}
}

func TestVerifyReportsTheFinalTurnsExpectations(t *testing.T) {
	s, _ := scripted.Parse("s.txt", []byte("turn\ncall broken\nexpect ok\n"))
	p := scripted.New(s)
	res, _ := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: dispatcher(t), MaxTurns: 1}, nil)
	want := `scripted: s.txt:3: call call_1 (broken): want a success, got a failure: "broken: broken"`
	if err := p.Verify(res.Messages); err == nil || err.Error() != want {
		t.Errorf("Verify = %v, want %s", err, want)
	}
}

func TestCompleteHonoursACancelledContext(t *testing.T) {
	s, _ := scripted.Parse("s.txt", []byte("turn\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := scripted.New(s).Complete(ctx, loop.Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// sameBlocks compares wink.Blocks (content blocks behind an unexported pointer) by identity, as == does.
var sameBlocks = cmp.Comparer(func(a, b wink.Blocks) bool { return a == b })
