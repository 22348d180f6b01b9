package resources_test

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/resources"
)

type scoped struct{ n int64 }

// TestCallHandleResolvesInItsOwnScope: two calls' handles on one Context, both scopes open, the second
// innermost. Each handle resolves tool-call resources (and their tool-call dependencies) in its own
// scope; the Context itself in the innermost. Before its scope opens a handle fails "outside a tool
// call", after it closes "after its tool call ended" (both ErrScope), while singletons still resolve.
func TestCallHandleResolvesInItsOwnScope(t *testing.T) {
	var made atomic.Int64
	depKey := resources.NewKey[*scoped]("Dep")
	topKey := resources.NewKey[*[2]*scoped]("Top")
	confKey := resources.NewKey[string]("Conf")
	reg, err := resources.NewRegistry(
		resources.Instance(confKey, "conf"),
		resources.Bind(depKey, func(*resources.Resolver) (*scoped, error) { return &scoped{made.Add(1)}, nil }).Scope(resources.ToolCall),
		resources.Bind(topKey, func(r *resources.Resolver) (*[2]*scoped, error) {
			d, err := resources.Get(r, depKey)
			return &[2]*scoped{{made.Add(1)}, d}, err
		}).Scope(resources.ToolCall),
	)
	if err != nil {
		t.Fatal(err)
	}
	c, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	h1, h2 := c.ForCall(), c.ForCall()
	if _, err := resources.Get(h1, depKey); !errors.Is(err, resources.ErrScope) || !strings.Contains(err.Error(), "outside a tool call") {
		t.Fatalf("Get before the call's scope opened = %v, want outside a tool call", err)
	}
	h1.BeginToolCall()
	d1, err := resources.Get(h1, depKey)
	if err != nil {
		t.Fatal(err)
	}
	h2.BeginToolCall()
	d2, _ := resources.Get(h2, depKey)
	top1, err := resources.Get(h1, topKey) // constructed while h2's scope is innermost
	if err != nil {
		t.Fatal(err)
	}
	if d1 == d2 || top1[1] != d1 {
		t.Fatalf("h1's Dep %v, h2's %v, h1's Top's Dep %v: want each call's own", d1, d2, top1[1])
	}
	if got, _ := resources.Get(c, depKey); got != d2 {
		t.Errorf("the Context resolves in the innermost scope: got %v, want %v", got, d2)
	}
	if !h1.InToolCall() || !h2.InToolCall() {
		t.Error("InToolCall() = false on an open call")
	}
	if err := h1.EndToolCall(); err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Get(h1, depKey); !errors.Is(err, resources.ErrScope) || !strings.Contains(err.Error(), "after its tool call ended") {
		t.Fatalf("Get after the call = %v, want after its tool call ended", err)
	}
	if got, _ := resources.Get(h2, depKey); got != d2 {
		t.Errorf("h2 after h1 ended: got %v, want %v", got, d2)
	}
	if got, err := resources.Get(h1, confKey); err != nil || got != "conf" {
		t.Errorf("singleton through an ended call's handle = %q, %v", got, err)
	}
	if h1.InToolCall() {
		t.Error("InToolCall() = true after the call's end")
	}
	if err := h1.EndToolCall(); !errors.Is(err, resources.ErrScope) {
		t.Errorf("second EndToolCall = %v, want ErrScope", err)
	}
	if err := h2.EndToolCall(); err != nil || c.InToolCall() {
		t.Fatalf("EndToolCall = %v, InToolCall = %v", err, c.InToolCall())
	}
}

// TestCallHandlesUnderConcurrentCalls: calls open and close their scopes one after another on one
// Context while goroutines keep each call's handle and resolve through it, during the call and after.
// A handle gives its own call's instance or an ErrScope error, never another call's. Run under -race.
func TestCallHandlesUnderConcurrentCalls(t *testing.T) {
	key := resources.NewKey[*scoped]("Thing")
	var made atomic.Int64
	reg, err := resources.NewRegistry(resources.Bind(key, func(*resources.Resolver) (*scoped, error) {
		return &scoped{made.Add(1)}, nil
	}).Scope(resources.ToolCall))
	if err != nil {
		t.Fatal(err)
	}
	c, err := reg.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	var mu sync.Mutex // the calls' scopes, one at a time, as the dispatcher holds the Context's lock
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				mu.Lock()
				h := c.ForCall()
				h.BeginToolCall()
				own, err := resources.Get(h, key)
				if err != nil {
					t.Error(err)
				}
				ended := make(chan struct{})
				wg.Add(1)
				go func() {
					defer wg.Done()
					after := 0
					for after < 20 {
						select {
						case <-ended:
							after++
						default:
						}
						got, err := resources.Get(h, key)
						if err == nil && got != own {
							t.Errorf("worker %d: a kept handle gave instance %d, its call's is %d", w, got.n, own.n)
							return
						}
						if err != nil && !errors.Is(err, resources.ErrScope) {
							t.Error(err)
							return
						}
						if err == nil && after > 0 {
							t.Error("a kept handle resolved a tool-call resource after its call ended")
							return
						}
					}
				}()
				if err := h.EndToolCall(); err != nil {
					t.Error(err)
				}
				close(ended)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
