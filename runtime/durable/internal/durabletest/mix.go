package durabletest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// The kinds of calls a mixed turn is made of: a call held for approval (transfer), a call that fails
// (deposit refused by its decoder: it changes nothing and commits nothing) and a call that commits
// (deposit).
const (
	Held      = 'H'
	Failing   = 'F'
	Committed = 'C'
)

// MixSequences returns every sequence of n calls of the three kinds, in every order.
func MixSequences(n int) []string {
	seqs := []string{""}
	for range n {
		var next []string
		for _, s := range seqs {
			for _, k := range []byte{Held, Failing, Committed} {
				next = append(next, s+string(k))
			}
		}
		seqs = next
	}
	return seqs
}

// MixCallID is the id of call i of the mixed turn.
func MixCallID(i int) string { return "m" + strconv.Itoa(i) }

// MixProvider is a model that makes the calls of Seq (one per kind letter) in its first turn and
// answers with a final text in its second; it counts the requests of each turn.
type MixProvider struct {
	Seq string
	// Deny says the test denies the held calls instead of approving them (VerifyMix then expects
	// their outcomes to be failures and their changes not made).
	Deny   bool
	mu     sync.Mutex
	counts map[int]int
}

// MixFinal is the mixed run's final answer.
const MixFinal = "Mixed turn done."

// Complete implements loop.Provider.
func (p *MixProvider) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	turn := 1
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			turn++
		}
	}
	p.mu.Lock()
	if p.counts == nil {
		p.counts = map[int]int{}
	}
	p.counts[turn]++
	p.mu.Unlock()
	if turn > 1 {
		return loop.Response{Text: MixFinal}, nil
	}
	var calls []wink.Call
	for i, k := range []byte(p.Seq) {
		c := wink.Call{ID: MixCallID(i)}
		n := strconv.Itoa(i)
		switch k {
		case Held:
			c.Name, c.Arguments = "transfer", []byte(`{"from":"h`+n+`","cents":1}`)
		case Failing:
			c.Name, c.Arguments = "deposit", []byte(`{"account":"","cents":1}`)
		default:
			c.Name, c.Arguments = "deposit", []byte(`{"account":"c`+n+`","cents":1}`)
		}
		calls = append(calls, c)
	}
	return loop.Response{Text: "Mixing.", ToolCalls: calls}, nil
}

// Counts returns the number of requests of each turn (from 1).
func (p *MixProvider) Counts() map[int]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[int]int{}
	for k, v := range p.counts {
		out[k] = v
	}
	return out
}

// VerifyMix checks a finished mixed run: done with the final answer; in the transcript one outcome
// per call in order, the held calls' and the committing calls' successes and the failing calls'
// failures; in the session each change exactly once (the held calls' made once approved, with their
// own keys); one model request per turn.
func VerifyMix(ctx context.Context, st session.Store, sessionID, run string, p *MixProvider, s durable.Status) error {
	var errs []error
	fail := func(msg ...string) { errs = append(errs, errors.New(strings.Join(msg, " "))) }
	if s.State != durable.Done || s.Stop != loop.StopDone || s.Text != MixFinal {
		fail("run not done:", s.State.String(), s.Stop.String(), strconv.Quote(s.Err), strconv.Quote(s.Text))
	}
	var got, want []string
	for _, m := range s.Messages {
		if m.Role == loop.RoleTool {
			got = append(got, m.Result.CallID+"="+strconv.FormatBool(m.Result.Success))
		}
	}
	var wantEntries []string
	for i, k := range []byte(p.Seq) {
		want = append(want, MixCallID(i)+"="+strconv.FormatBool(k == Committed || (k == Held && !p.Deny)))
		n := strconv.Itoa(i)
		switch {
		case k == Held && p.Deny:
		case k == Held:
			wantEntries = append(wantEntries, "h"+n+" -1 "+Key(run, 1, i))
		case k == Committed:
			wantEntries = append(wantEntries, "c"+n+" 1 "+Key(run, 1, i))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		fail("tool outcomes:", strings.Join(got, " "), "want", strings.Join(want, " "))
	}
	entries, err := StoredEntries(ctx, st, sessionID)
	if err != nil {
		fail("reading the session:", err.Error())
	}
	var have []string
	for _, e := range entries {
		have = append(have, e.Account+" "+strconv.Itoa(e.Cents)+" "+e.Key)
	}
	// The held calls commit after their siblings, in the order they were approved.
	if !sameSet(have, wantEntries) {
		fail("session entries (each change exactly once):", strings.Join(have, " | "), "want", strings.Join(wantEntries, " | "))
	}
	for turn, n := range p.Counts() {
		if n != 1 {
			fail("model requests for turn", strconv.Itoa(turn), "=", strconv.Itoa(n), "(want 1)")
		}
	}
	return errors.Join(errs...)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[string]int{}
	for _, x := range a {
		n[x]++
	}
	for _, x := range b {
		if n[x]--; n[x] < 0 {
			return false
		}
	}
	return true
}
