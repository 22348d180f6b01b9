package durabletest

import (
	"context"
	"sync"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/anthropichttp"
	"github.com/winkgen/wink/runtime/providers/openairesponses"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// CaptureModel is a model that plays a two-turn script (snapshot alice and transfer 30 from alice, the
// transfer held for approval as HeldCallID; then a final answer) and keeps, for each turn, the request
// bodies the Anthropic and OpenAI Responses providers would send for it: the bytes the model would see.
type CaptureModel struct {
	anth *anthropichttp.Provider
	resp *openairesponses.Provider
	mu   sync.Mutex
	body map[int][]byte
	sent map[int]int
}

// NewCaptureModel returns a CaptureModel.
func NewCaptureModel() (*CaptureModel, error) {
	a, err := anthropichttp.New(anthropichttp.Config{BaseURL: "http://127.0.0.1:1", Model: "m", APIKey: "-"})
	if err != nil {
		return nil, err
	}
	r, err := openairesponses.New(openairesponses.Config{BaseURL: "http://127.0.0.1:1", Model: "m", APIKey: "-"})
	if err != nil {
		return nil, err
	}
	return &CaptureModel{anth: a, resp: r, body: map[int][]byte{}, sent: map[int]int{}}, nil
}

// Complete records the request's bodies and answers the turn (counted by the assistant messages).
func (w *CaptureModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	turn := 1
	for _, m := range req.Messages {
		if m.Role == loop.RoleAssistant {
			turn++
		}
	}
	a, err := w.anth.RequestBody(req)
	if err != nil {
		return loop.Response{}, err
	}
	r, err := w.resp.RequestBody(req)
	if err != nil {
		return loop.Response{}, err
	}
	w.mu.Lock()
	w.body[turn] = append(append(a, '\n'), r...)
	w.sent[turn]++
	w.mu.Unlock()
	if turn == 1 {
		return loop.Response{Text: "Looking.", ToolCalls: []wink.Call{
			{ID: "c1_0", Name: "snapshot", Arguments: []byte(`{"account":"alice"}`)},
			{ID: HeldCallID, Name: "transfer", Arguments: []byte(`{"from":"alice","cents":30}`)},
		}}, nil
	}
	return loop.Response{Text: "Done."}, nil
}

// Body returns the request bodies sent for turn (the Anthropic one, a newline, the OpenAI Responses one).
func (w *CaptureModel) Body(turn int) []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body[turn]
}

// Sent returns how many requests turn had.
func (w *CaptureModel) Sent(turn int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sent[turn]
}

// CaptureInput is the run's input for CaptureModel.
var CaptureInput = []loop.Message{loop.UserMessage("Look at alice, take 30.")}

// UninterruptedBody returns the bodies of CaptureModel's second request in a plain loop.Run, the
// approval and loop.Resume: what the model sees when nothing durable is in between.
func UninterruptedBody(ctx context.Context) ([]byte, error) {
	m, err := NewCaptureModel()
	if err != nil {
		return nil, err
	}
	sst, err := session.NewMemoryStore(Slices()...)
	if err != nil {
		return nil, err
	}
	d, err := Dispatcher(sst, nil, "plain")
	if err != nil {
		return nil, err
	}
	cfg := loop.Config{Provider: m, Dispatcher: d, System: "You keep the accounts."}
	res, err := loop.Run(ctx, cfg, CaptureInput)
	if res.Stop != loop.StopHeld {
		return nil, err
	}
	if err := Approve(ctx, sst, "plain", res.Held[0]); err != nil {
		return nil, err
	}
	if _, err = loop.Resume(ctx, cfg, res.Messages); err != nil {
		return nil, err
	}
	return m.Body(2), nil
}

// MeteredStore is a session store that keeps the size of the last write of a tool call's transaction
// (one that changes the accounts' entries), per slice.
type MeteredStore struct {
	session.Store
	mu   sync.Mutex
	last map[string]int
}

// Last returns the sizes of the last tool call's write, per slice.
func (m *MeteredStore) Last() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

type meteredTx struct {
	session.StoreTx
	m *MeteredStore
}

// Begin begins a transaction whose commit is measured.
func (m *MeteredStore) Begin(ctx context.Context, id string, access session.Access, known session.Known) (session.StoreTx, session.Loaded, error) {
	tx, l, err := m.Store.Begin(ctx, id, access, known)
	if err != nil {
		return tx, l, err
	}
	return meteredTx{tx, m}, l, nil
}

func (t meteredTx) Commit(ctx context.Context, w session.Write) (int64, error) {
	if _, ok := w.State[Entries.Name()]; ok {
		sizes := map[string]int{}
		for name, items := range w.State {
			for _, it := range items {
				sizes[name] += len(it)
			}
		}
		for name, items := range w.Logs {
			for _, it := range items {
				sizes[name] += len(it)
			}
		}
		t.m.mu.Lock()
		t.m.last = sizes
		t.m.mu.Unlock()
	}
	return t.StoreTx.Commit(ctx, w)
}

// SnapshotModel has every run call snapshot once (a result with a block of every kind, about 450
// bytes in a commit), then answer.
type SnapshotModel struct{}

// Complete answers the turn.
func (SnapshotModel) Complete(_ context.Context, req loop.Request) (loop.Response, error) {
	for _, m := range req.Messages {
		if m.Role == loop.RoleTool {
			return loop.Response{Text: "Seen."}, nil
		}
	}
	return loop.Response{ToolCalls: []wink.Call{{ID: "c1_0", Name: "snapshot", Arguments: []byte(`{"account":"alice"}`)}}}, nil
}

// CommitsLeft returns the number of commits session id of st keeps.
func CommitsLeft(ctx context.Context, st session.Store, id string) (int, error) {
	s := session.New(session.WithID(id), session.WithStore(st))
	tx, err := s.Begin(ctx, session.ReadOnly)
	if err != nil {
		return 0, err
	}
	n := session.Len(s, durable.CommitSlice)
	return n, tx.End(ctx)
}
