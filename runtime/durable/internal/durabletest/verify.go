package durabletest

import (
	"context"
	"errors"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/policy"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// Key returns the durable idempotency key of call index of turn in run.
func Key(run string, turn, index int) string {
	return "durable:" + run + ":" + strconv.Itoa(turn) + ":" + strconv.Itoa(index)
}

// Approve records the approval of held (as durable.Status.Held or loop.Result.Held report it) in the
// stored session id, as any process sharing the store may.
func Approve(ctx context.Context, st session.Store, id string, held *wink.HeldError) error {
	return policy.Approve(ctx, session.New(session.WithID(id), session.WithStore(st)), held)
}

// StoredEntries returns the session's entries as committed in st.
func StoredEntries(ctx context.Context, st session.Store, id string) ([]Entry, error) {
	s := session.New(session.WithID(id), session.WithStore(st))
	tx, err := s.Begin(ctx, session.ReadOnly)
	if err != nil {
		return nil, err
	}
	if err := tx.End(ctx); err != nil {
		return nil, err
	}
	return session.All(s, Entries), nil
}

// Verify checks a finished run of Script: it ended with the final answer and the full transcript, the
// session holds every change exactly once, every outside effect happened once per key (twice, with the
// same key, only for the call whose handler was killed: crashed names that point), and the model was
// asked once per turn (counts, nil to skip).
func Verify(ctx context.Context, st session.Store, sessionID, run, effectsFile string, counts map[int]int, crashed string, s durable.Status) error {
	var errs []error
	fail := func(format string, args ...string) {
		errs = append(errs, errors.New(format+" "+strings.Join(args, " ")))
	}
	if s.State != durable.Done || s.Stop != loop.StopDone {
		fail("run not done:", s.State.String(), s.Stop.String(), s.Err)
	}
	if want := Script[len(Script)-1].Text; s.Text != want {
		fail("final text:", strconv.Quote(s.Text))
	}
	var tools []string
	for _, m := range s.Messages {
		if m.Role == loop.RoleTool {
			if !m.Result.Success {
				fail("failed call in transcript:", m.Result.CallID, m.Result.Output)
			}
			tools = append(tools, m.Result.CallID+"="+m.Result.Message)
		}
	}
	wantTools := []string{
		"c1_0=Balance of alice: 100 cents.", "c1_1=Balance of bob: 50 cents.",
		"c2_0=Balance of alice: 70 cents.", "c3_0=Balance of carol: 7 cents.",
	}
	if strings.Join(tools, "|") != strings.Join(wantTools, "|") {
		fail("tool results:", strings.Join(tools, " | "))
	}
	if len(s.Messages) != 9 {
		fail("transcript has", strconv.Itoa(len(s.Messages)), "messages, want 9")
	}
	entries, err := StoredEntries(ctx, st, sessionID)
	if err != nil {
		fail("reading the session:", err.Error())
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Account+" "+strconv.Itoa(e.Cents)+" "+e.Key)
	}
	want := []string{
		"alice 100 " + Key(run, 1, 0), "bob 50 " + Key(run, 1, 1),
		"alice -30 " + Key(run, 2, 0), "carol 7 " + Key(run, 3, 0),
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		fail("session entries (each change exactly once):", strings.Join(got, " | "))
	}
	if effectsFile != "" {
		data, err := os.ReadFile(effectsFile)
		if err != nil {
			fail("reading the effects:", err.Error())
		}
		byKey := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if f := strings.Fields(line); len(f) == 2 {
				byKey[f[1]]++
			}
		}
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) != 4 {
			fail("outside effects: keys", strings.Join(keys, " "))
		}
		for k, n := range byKey {
			want := 1
			if crashed == InHandler && k == Key(run, 1, 0) {
				want = 2 // the killed handler's effect ran again, with the same key
			}
			if n != want {
				fail("outside effect", k, "made", strconv.Itoa(n), "times, want", strconv.Itoa(want))
			}
		}
	}
	if counts != nil {
		for turn := 1; turn <= len(Script); turn++ {
			if counts[turn] != 1 {
				fail("model requests for turn", strconv.Itoa(turn), "=", strconv.Itoa(counts[turn]), "(want 1)")
			}
		}
	}
	return errors.Join(errs...)
}
