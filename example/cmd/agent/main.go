// Command agent runs the example agent (example/agent) end to end through the agent loop and prints every
// turn: the model's text, each tool call with its raw arguments, what the model reads back, and the
// workspace after the turn.
//
// By default the model is scripted (example/agent/transcript.txt, replayed by runtime/providers/scripted,
// which also checks every result the script expects). With WINK_DEMO_LIVE=1 the same agent runs against a
// real OpenAI-compatible endpoint configured by OPENAI_BASE_URL, OPENAI_MODEL and OPENAI_API_KEY.
//
//	go run ./example/cmd/agent [-transcript file] [-max-turns n] [-max-tokens n] [-timeout d] [-prompt]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/winkgen/wink/example/agent"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/openaihttp"
	"github.com/winkgen/wink/runtime/providers/scripted"
)

func main() {
	transcript := flag.String("transcript", "", "replay this transcript instead of the built-in one")
	maxTurns := flag.Int("max-turns", 20, "maximum number of model turns")
	maxTokens := flag.Int64("max-tokens", 200_000, "token budget of the run (input plus output; 0: unlimited)")
	timeout := flag.Duration("timeout", 5*time.Minute, "deadline of the whole run")
	showPrompt := flag.Bool("prompt", false, "print the system prompt")
	flag.Parse()
	opts := options{live: os.Getenv("WINK_DEMO_LIVE") == "1", transcript: *transcript, maxTurns: *maxTurns, maxTokens: *maxTokens, timeout: *timeout, showPrompt: *showPrompt}
	if err := run(os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, "agent:", err)
		os.Exit(1)
	}
}

// options are the command's settings.
type options struct {
	live       bool
	transcript string
	maxTurns   int
	maxTokens  int64
	timeout    time.Duration
	showPrompt bool
}

func run(w io.Writer, o options) error {
	live, transcript, maxTurns, timeout, showPrompt := o.live, o.transcript, o.maxTurns, o.timeout, o.showPrompt
	a, err := agent.New(o.maxTokens)
	if err != nil {
		return err
	}
	defer a.Close()
	var provider loop.Provider
	var script *scripted.Provider
	if live {
		p, err := openaihttp.New(openaihttp.Config{})
		if err != nil {
			return err
		}
		provider = p
		fmt.Fprintf(w, "Model: %s at %s (live)\n", p.Config().Model, p.Config().BaseURL)
	} else {
		s, err := scripted.Parse(agent.TranscriptName, agent.Transcript)
		if transcript != "" {
			s, err = scripted.Load(transcript)
		}
		if err != nil {
			return err
		}
		script = scripted.New(s)
		provider = script
		fmt.Fprintf(w, "Model: scripted, replaying %s (set WINK_DEMO_LIVE=1 and OPENAI_* for a real one)\n", s.Name)
	}
	names := make([]string, len(a.Rendered.Tools))
	for i, t := range a.Rendered.Tools {
		names[i] = t.Name()
	}
	fmt.Fprintf(w, "Tools offered (%d): %s\n", len(names), strings.Join(names, ", "))
	if showPrompt {
		fmt.Fprintf(w, "System prompt:\n%s", a.Rendered.Text)
	} else {
		fmt.Fprintf(w, "System prompt: %d lines of markdown rendered from the prompt's sections (-prompt prints it)\n", strings.Count(a.Rendered.Text, "\n"))
	}
	fmt.Fprintf(w, "\nUser: %s\n", agent.Task)

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	prevFiles := ""
	res, err := loop.Run(ctx, loop.Config{
		Provider:   provider,
		Dispatcher: a.Dispatcher,
		System:     a.Rendered.Text,
		Tools:      a.Rendered.Tools,
		MaxTurns:   maxTurns,
		OnTurn: func(t loop.Turn) {
			title := ""
			if script != nil && script.Script().Turns[t.Index-1].Title != "" {
				title = " · " + script.Script().Turns[t.Index-1].Title
			}
			fmt.Fprintf(w, "\n── Turn %d%s\n", t.Index, title)
			if t.Response.Text != "" {
				fmt.Fprintf(w, "Model: %s\n", indent(t.Response.Text, "       "))
			}
			for i, c := range t.Response.ToolCalls {
				fmt.Fprintf(w, "  → %s\n", strings.TrimSpace(c.Name+" "+string(c.Arguments)))
				o := t.Outcomes[i] // one per call, at the call's index
				status := "ok"
				switch {
				case o.Held:
					fmt.Fprintf(w, "  ← HELD for approval: %s\n", o.Message)
					continue
				case o.NotRun:
					fmt.Fprintf(w, "  ← (%s)\n", o.Message)
					continue
				case !o.Success:
					status = "FAILED (whatever the call changed is rolled back; the model reads:)"
				case o.Replayed:
					status = "ok, REPLAYED from the idempotency ledger (handler not run again)"
				}
				fmt.Fprintf(w, "  ← %s\n      %s\n", status, indent(o.Output, "      "))
			}
			if len(t.Response.ToolCalls) > 0 {
				files := workspace(a)
				note := ""
				if files == prevFiles {
					note = " (unchanged)"
				}
				prevFiles = files
				fmt.Fprintf(w, "  workspace%s: %s\n", note, files)
			}
		},
	}, []loop.Message{loop.UserMessage(agent.Task)})

	fmt.Fprintf(w, "\n── Result\nStopped: %s after %d turns; tokens used: %d in, %d out (%d total), %d left in the budget\n",
		res.Stop, res.Turns, res.Usage.Input, res.Usage.Output, res.Usage.Total, a.Dispatcher.Budget.Remaining().Total)
	fmt.Fprintf(w, "Final answer:\n  %s\n", indent(res.Text, "  "))
	if data, rerr := a.Workspace.Read("docs/guide.md"); rerr == nil {
		fmt.Fprintf(w, "docs/guide.md now reads:\n  %s\n", indent(strings.TrimRight(string(data), "\n"), "  "))
	}
	if err != nil {
		return err
	}
	if script != nil {
		if err := script.Verify(res.Messages); err != nil {
			return errors.Join(errors.New("the run did not go as the transcript expects"), err)
		}
		fmt.Fprintln(w, "Every result matched what the transcript expects.")
	}
	return nil
}

// workspace lists the workspace's files with their sizes.
func workspace(a *agent.Agent) string {
	paths, err := a.Workspace.Glob("**")
	if err != nil {
		return "error: " + err.Error()
	}
	var out []string
	for _, p := range paths {
		e, err := a.Workspace.Stat(p)
		if err != nil || e.IsDir {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%d B)", p, e.Size))
	}
	return strings.Join(out, ", ")
}

func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }
