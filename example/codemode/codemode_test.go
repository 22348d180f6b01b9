package codemode_test

import (
	"context"
	"testing"

	"github.com/winkgen/wink/example/codemode"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/scripted"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// counting counts a provider's requests and the tool-definition bytes they carry.
type counting struct {
	p            *scripted.Provider
	turns, bytes int
}

func (c *counting) Complete(ctx context.Context, req loop.Request) (loop.Response, error) {
	c.turns++
	c.bytes += codemode.DefinitionBytes(req)
	return c.p.Complete(ctx, req)
}

// runTask runs the task with the scripted model of one mode and returns its counts.
func runTask(tb testing.TB, program bool) *counting {
	tb.Helper()
	name, text := codemode.CallsTranscriptName, codemode.CallsTranscript
	if program {
		name, text = codemode.ProgramTranscriptName, codemode.ProgramTranscript
	}
	s, err := scripted.Parse(name, text)
	if err != nil {
		tb.Fatal(err)
	}
	c := &counting{p: scripted.New(s)}
	d := &wink.Dispatcher{Registry: codemode.Registry(), Session: session.New(), Policies: []wink.Policy{codemode.RouteGuard{}}}
	res, err := loop.Run(context.Background(), codemode.Config(c, d, program), []loop.Message{loop.UserMessage(codemode.Task)})
	if err != nil || res.Stop != loop.StopDone {
		tb.Fatalf("run: %v (%s)", err, res.Stop)
	}
	if err := c.p.Verify(res.Messages); err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestProgramAnswersInFewerTurnsAndBytes runs the task both ways with the scripted model: the program
// needs 2 model turns where calls one by one need 13, and sends fewer tool-definition bytes in all.
func TestProgramAnswersInFewerTurnsAndBytes(t *testing.T) {
	calls, program := runTask(t, false), runTask(t, true)
	t.Logf("call by call: %d turns, %d tool-definition bytes; by program: %d turns, %d bytes; ratios %.2fx turns, %.2fx bytes",
		calls.turns, calls.bytes, program.turns, program.bytes,
		float64(calls.turns)/float64(program.turns), float64(calls.bytes)/float64(program.bytes))
	if calls.turns != 13 || program.turns != 2 || program.bytes >= calls.bytes {
		t.Errorf("call by call %d turns %d bytes, by program %d turns %d bytes", calls.turns, calls.bytes, program.turns, program.bytes)
	}
}

// BenchmarkTask runs the task call by call and by program, reporting model turns and tool-definition
// bytes per run (go test -bench Task -benchmem ./example/codemode).
func BenchmarkTask(b *testing.B) {
	for _, mode := range []struct {
		name    string
		program bool
	}{{"calls", false}, {"program", true}} {
		b.Run(mode.name, func(b *testing.B) {
			var c *counting
			for b.Loop() {
				c = runTask(b, mode.program)
			}
			b.ReportMetric(float64(c.turns), "turns/op")
			b.ReportMetric(float64(c.bytes), "defbytes/op")
		})
	}
}
