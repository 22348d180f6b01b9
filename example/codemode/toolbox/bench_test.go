package toolbox_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/winkgen/wink/example/codemode"
	"github.com/winkgen/wink/example/codemode/toolbox"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/eval"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

// The three ways of doing codemode's route task in the toolbox, as a scripted model does it.
const (
	calls   = "calls"   // one route_leg call per model turn, every definition loaded
	program = "program" // one program (run_program, the program guide in the system prompt)
	search  = "search"  // the definitions deferred, route_leg found by the tool search, then one call per turn
)

var modes = []string{calls, program, search}

// transcript is the scripted model of a mode: codemode's transcripts, without their list of offered
// tools (which differs here), and a search turn first for search.
func transcript(mode string) []byte {
	text := string(codemode.CallsTranscript)
	if mode == program {
		text = string(codemode.ProgramTranscript)
	}
	var b strings.Builder
	if mode == search {
		b.WriteString("turn Find the route tool\ncall tool_search {\"query\":\"leg of the route leaving a city\",\"limit\":3}\nexpect ok route_leg(city)\n\n")
	}
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "tools ") {
			b.WriteString(line)
		}
	}
	return []byte(b.String())
}

// counter counts a run's model turns and the tool-definition bytes its requests load into the model's
// context, the same way for every mode: each loaded tool's name, description and params schema (with
// every deferred definition counted as loaded when there is no search: without one, all are sent), the
// search tool's when offered, and the program guide where the system prompt carries it.
type counter struct {
	p            *scripted.Provider
	loadAll      bool
	turns, bytes int
}

func definition(t *wink.Tool) int {
	return len(t.Name()) + len(t.Description()) + len(t.Spec().ParamsSchema)
}

func (c *counter) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	c.turns++
	for _, t := range req.Tools {
		c.bytes += definition(t)
	}
	if c.loadAll {
		for _, t := range req.Deferred {
			c.bytes += definition(t)
		}
	}
	if req.Search {
		c.bytes += len(toolsearch.Name) + len(toolsearch.Description) + len(toolsearch.ParamsSchema)
	}
	if i := strings.Index(req.System, "You can run a Starlark program"); i >= 0 {
		c.bytes += len(req.System) - i
	}
	return c.p.Complete(ctx, req)
}

// run does the task one way and returns its counts, checking every expectation of the script.
func run(tb testing.TB, mode string) *counter {
	tb.Helper()
	s, err := scripted.Parse("toolbox/"+mode, transcript(mode))
	if err != nil {
		tb.Fatal(err)
	}
	c := &counter{p: scripted.New(s), loadAll: mode == calls}
	reg := wink.MustRegistry(append(toolbox.WinkTools(), eval.Program))
	cfg := loop.Config{Provider: c, Dispatcher: &wink.Dispatcher{Registry: reg, Session: session.New()},
		System: "You answer questions about the route with its tools.", Tools: toolbox.WinkTools()}
	switch mode {
	case program:
		cfg.Tools = []*wink.Tool{eval.Program}
		cfg.System += "\n\n" + eval.ProgramGuide(eval.CallableTools(reg))
	case search:
		cfg.Search = []*toolsearch.Catalog{toolbox.WinkCatalog}
	}
	res, err := loop.Run(context.Background(), cfg, []loop.Message{loop.UserMessage(codemode.Task)})
	if err != nil || res.Stop != loop.StopDone {
		tb.Fatalf("%s: %v (%s)", mode, err, res.Stop)
	}
	if err := c.p.Verify(res.Messages); err != nil {
		tb.Fatal(err)
	}
	if !strings.Contains(res.Text, "Stockholm after 5221 km") {
		tb.Fatalf("%s answered %q", mode, res.Text)
	}
	return c
}

// TestToolUseTable does the route task the three ways and checks what each saves: by program, a
// fraction of the model turns; with search, a fraction of the definition bytes. With -v it prints the
// table make bench-tools shows.
func TestToolUseTable(t *testing.T) {
	got := map[string]*counter{}
	for _, m := range modes {
		got[m] = run(t, m)
	}
	base := got[calls]
	if testing.Verbose() {
		fmt.Println("| way (the same task: 12 dependent route_leg lookups, 16 tools) | model turns | tool-definition bytes | turns vs call by call | bytes vs call by call |")
		fmt.Println("|---|---:|---:|---:|---:|")
		for _, m := range modes {
			c := got[m]
			fmt.Printf("| %s | %d | %d | %.2fx | %.2fx |\n", describe[m], c.turns, c.bytes,
				float64(c.turns)/float64(base.turns), float64(c.bytes)/float64(base.bytes))
		}
	}
	if base.turns != 13 || got[program].turns != 2 || got[search].turns != 14 {
		t.Errorf("turns: calls %d, program %d, search %d", base.turns, got[program].turns, got[search].turns)
	}
	if got[program].bytes >= base.bytes || got[search].bytes*2 >= base.bytes {
		t.Errorf("bytes: calls %d, program %d, search %d", base.bytes, got[program].bytes, got[search].bytes)
	}
}

var describe = map[string]string{
	calls:   "call by call, every definition loaded",
	program: "by one program (run_program + guide)",
	search:  "call by call, deferred tools found by search",
}

// BenchmarkToolUse does the route task each way, reporting model turns and tool-definition bytes per
// run beside the time (go test -run '^$' -bench ToolUse -benchmem ./example/codemode/toolbox).
func BenchmarkToolUse(b *testing.B) {
	for _, m := range modes {
		b.Run(m, func(b *testing.B) {
			var c *counter
			for b.Loop() {
				c = run(b, m)
			}
			b.ReportMetric(float64(c.turns), "turns/op")
			b.ReportMetric(float64(c.bytes), "defbytes/op")
		})
	}
}
