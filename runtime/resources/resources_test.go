package resources_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/runtime/resources"
)

// thing is a resource that records its lifecycle in a shared log.
type thing struct {
	name     string
	log      *recorder
	closeErr error
	state    int
}

func (t *thing) Close() error {
	t.log.add("close " + t.name)
	return t.closeErr
}

func (t *thing) Snapshot() (any, error) { return t.state, nil }
func (t *thing) Restore(s any) error    { t.state = s.(int); return nil }

type recorder struct {
	mu  sync.Mutex
	ops []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.ops = append(r.ops, s)
	r.mu.Unlock()
}

func (r *recorder) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ops)
}

// provide returns a provider that gets deps (through its resolver), then
// constructs a *thing named name and logs it.
func provide(log *recorder, name string, deps ...resources.Key[*thing]) func(*resources.Resolver) (*thing, error) {
	return func(r *resources.Resolver) (*thing, error) {
		for _, d := range deps {
			if _, err := resources.Get(r, d); err != nil {
				return nil, err
			}
		}
		log.add("new " + name)
		return &thing{name: name, log: log}, nil
	}
}

func key(name string) resources.Key[*thing] { return resources.NewKey[*thing](name) }

func mustRegistry(t *testing.T, bs ...resources.Binding) *resources.Registry {
	t.Helper()
	reg, err := resources.NewRegistry(bs...)
	if err != nil {
		t.Fatalf("NewRegistry: %v", err)
	}
	return reg
}

func mustOpen(t *testing.T, reg *resources.Registry) *resources.Context {
	t.Helper()
	c, err := reg.Open()
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return c
}

func TestNewRegistryErrorTexts(t *testing.T) {
	fs := key("Filesystem")
	fs2 := key("Filesystem")
	tr := key("Tracer")
	log := &recorder{}
	cases := []struct {
		name     string
		bindings []resources.Binding
		want     string
		kind     error
	}{
		{"same key twice", []resources.Binding{
			resources.Bind(fs, provide(log, "a")), resources.Bind(fs, provide(log, "b"))},
			"Duplicate binding for Filesystem", resources.ErrDuplicate},
		{"two keys with one name", []resources.Binding{
			resources.Bind(fs, provide(log, "a")), resources.Instance(fs2, &thing{})},
			"Duplicate binding for Filesystem", resources.ErrDuplicate},
		{"zero key", []resources.Binding{resources.Bind(resources.Key[*thing]{}, provide(log, "a"))},
			"Binding 0 has a zero Key", resources.ErrInvalidBinding},
		{"nil binding", []resources.Binding{resources.Bind(fs, provide(log, "a")), nil},
			"Binding 1 is nil", resources.ErrInvalidBinding},
		{"nil provider", []resources.Binding{resources.Bind(fs, nil)},
			"Binding for Filesystem has no provider", resources.ErrInvalidBinding},
		{"unknown scope", []resources.Binding{resources.Bind(fs, provide(log, "a")).Scope(9)},
			"Binding for Filesystem has invalid scope 9", resources.ErrInvalidBinding},
		{"eager tool-call", []resources.Binding{resources.Bind(tr, provide(log, "a")).Scope(resources.ToolCall).Eager()},
			"Eager binding for Tracer must be singleton-scoped (scope is tool-call)", resources.ErrInvalidBinding},
		{"eager prototype", []resources.Binding{resources.Bind(tr, provide(log, "a")).Scope(resources.Prototype).Eager()},
			"Eager binding for Tracer must be singleton-scoped (scope is prototype)", resources.ErrInvalidBinding},
		{"close hook on prototype", []resources.Binding{resources.Bind(tr, provide(log, "a")).
			Scope(resources.Prototype).OnClose(func(*thing) error { return nil })},
			"Close hook for Tracer is never called: prototype resources are not closed", resources.ErrInvalidBinding},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resources.NewRegistry(tc.bindings...)
			if err == nil {
				t.Fatal("NewRegistry succeeded")
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q, want %q", err, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("errors.Is(err, %v) = false", tc.kind)
			}
			var re *resources.Error
			if !errors.As(err, &re) {
				t.Errorf("errors.As(*Error) = false")
			}
		})
	}
}

func TestNewRegistryReportsAllErrorsAtOnce(t *testing.T) {
	a, b := key("A"), key("B")
	_, err := resources.NewRegistry(
		resources.Bind(a, nil),
		resources.Bind(b, provide(&recorder{}, "b")),
		resources.Bind(b, provide(&recorder{}, "b")),
	)
	want := "Binding for A has no provider\nDuplicate binding for B"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestGetErrorTexts(t *testing.T) {
	boom := errors.New("disk full")
	log := &recorder{}
	fs, a, b, c, x := key("Filesystem"), key("A"), key("B"), key("C"), key("X")
	tr, cfg, proto := key("Tracer"), key("Config"), key("Builder")
	unbound := key("Unbound")
	post := key("Post")
	pan := key("Panicky")
	selfk := key("Self")
	protoSelf := key("ProtoSelf")
	reg := mustRegistry(t,
		resources.Bind(fs, func(*resources.Resolver) (*thing, error) { return nil, boom }),
		resources.Bind(a, provide(log, "a", b)),
		resources.Bind(b, provide(log, "b", c)),
		resources.Bind(c, provide(log, "c", a)),
		resources.Bind(x, provide(log, "x", a)),
		resources.Bind(selfk, provide(log, "self", selfk)),
		resources.Bind(protoSelf, provide(log, "ps", protoSelf)).Scope(resources.Prototype),
		resources.Bind(tr, provide(log, "tracer")).Scope(resources.ToolCall),
		resources.Bind(cfg, provide(log, "cfg", proto)),
		resources.Bind(proto, provide(log, "proto", tr)).Scope(resources.Prototype),
		resources.Bind(post, provide(log, "post")).PostConstruct(func(*thing) error { return boom }),
		resources.Bind(pan, func(*resources.Resolver) (*thing, error) { return nil, resources.ErrProvider }),
	)
	cases := []struct {
		name     string
		key      resources.Key[*thing]
		toolCall bool
		want     string
		kind     error
	}{
		{"unbound", unbound, false, "No binding for Unbound", resources.ErrUnbound},
		{"zero key", resources.Key[*thing]{}, false, "No binding for <zero Key>", resources.ErrUnbound},
		{"provider error", fs, false, "Provider for Filesystem failed: disk full", resources.ErrProvider},
		{"three-node cycle", a, false, "Circular dependency: A -> B -> C -> A", resources.ErrCycle},
		{"cycle entered from outside", x, false, "Circular dependency: A -> B -> C -> A", resources.ErrCycle},
		{"self dependency", selfk, false, "Circular dependency: Self -> Self", resources.ErrCycle},
		{"prototype self dependency", protoSelf, false, "Circular dependency: ProtoSelf -> ProtoSelf", resources.ErrCycle},
		{"tool-call outside tool call", tr, false, "Tool-call resource Tracer requested outside a tool call", resources.ErrScope},
		{"singleton via prototype on tool-call", cfg, true, "Singleton Config cannot depend on tool-call resource Tracer", resources.ErrScope},
		{"post-construct", post, false, "Post-construct for Post failed: disk full", resources.ErrPostConstruct},
		{"provider error wrapping a sentinel", pan, false, "Provider for Panicky failed: provider failed", resources.ErrProvider},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := mustOpen(t, reg)
			defer ctx.Close()
			if tc.toolCall {
				ctx.BeginToolCall()
				defer ctx.EndToolCall()
			}
			v, err := resources.Get(ctx, tc.key)
			if err == nil {
				t.Fatalf("Get succeeded: %v", v)
			}
			if v != nil {
				t.Errorf("Get returned a value with an error: %v", v)
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q, want %q", err, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("errors.Is(err, %v) = false", tc.kind)
			}
		})
	}
}

func TestProviderErrorUnwrapsToCause(t *testing.T) {
	boom := errors.New("boom")
	k := key("K")
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(k, func(*resources.Resolver) (*thing, error) {
		return nil, fmt.Errorf("dial: %w", boom)
	})))
	_, err := resources.Get(ctx, k)
	if !errors.Is(err, boom) || !errors.Is(err, resources.ErrProvider) {
		t.Fatalf("err %v does not match both the cause and ErrProvider", err)
	}
	var re *resources.Error
	if !errors.As(err, &re) || re.Resource != "K" || re.Kind != resources.ErrProvider {
		t.Fatalf("As: %+v", re)
	}
}

func TestDependencyFailurePassesThroughUnwrapped(t *testing.T) {
	a, b := key("A"), key("B")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, func(r *resources.Resolver) (*thing, error) {
			_, err := resources.Get(r, b)
			return nil, fmt.Errorf("building A: %w", err)
		}),
		resources.Bind(b, func(*resources.Resolver) (*thing, error) { return nil, errors.New("no disk") }),
	))
	_, err := resources.Get(ctx, a)
	if want := "Provider for B failed: no disk"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestScopeErrorTexts(t *testing.T) {
	k := key("K")
	reg := mustRegistry(t, resources.Bind(k, provide(&recorder{}, "k")))
	ctx := mustOpen(t, reg)
	err := ctx.EndToolCall()
	if want := "No tool call in progress"; err == nil || err.Error() != want || !errors.Is(err, resources.ErrScope) {
		t.Errorf("EndToolCall without Begin = %v, want %q", err, want)
	}
	if err := ctx.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = resources.Get(ctx, k)
	if want := "Cannot get K: resource context is closed"; err == nil || err.Error() != want || !errors.Is(err, resources.ErrClosed) {
		t.Errorf("Get after Close = %v, want %q", err, want)
	}
	if err := ctx.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
}

func TestResolverUsedAfterProviderReturnedFails(t *testing.T) {
	a, b := key("A"), key("B")
	var kept *resources.Resolver
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, func(r *resources.Resolver) (*thing, error) { kept = r; return &thing{}, nil }),
		resources.Bind(b, provide(&recorder{}, "b")),
	))
	if _, err := resources.Get(ctx, a); err != nil {
		t.Fatal(err)
	}
	_, err := resources.Get(kept, b)
	if want := "Resolver of A used after its provider returned (getting B)"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestLazySingletonsAreConstructedOnFirstGetOnly(t *testing.T) {
	log := &recorder{}
	cfg, http := key("Config"), key("HTTP")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(cfg, provide(log, "Config")),
		resources.Bind(http, provide(log, "HTTP", cfg)),
	))
	if got := log.get(); len(got) != 0 {
		t.Fatalf("Open constructed %v; lazy bindings must wait for Get", got)
	}
	h1, err := resources.Get(ctx, http)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := resources.Get(ctx, http)
	c1, _ := resources.Get(ctx, cfg)
	if h1 != h2 {
		t.Error("singleton Get returned two instances")
	}
	if c1 == nil || c1.name != "Config" {
		t.Errorf("Config = %v", c1)
	}
	if want := []string{"new Config", "new HTTP"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v (dependency first, each once)", log.get(), want)
	}
}

func TestEagerSingletonsAreConstructedByOpenInBindingOrder(t *testing.T) {
	log := &recorder{}
	a, b, c := key("A"), key("B"), key("C")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, provide(log, "A")),
		resources.Bind(b, provide(log, "B", a)).Eager(),
		resources.Bind(c, provide(log, "C")).Eager(),
	))
	if want := []string{"new A", "new B", "new C"}; !slices.Equal(log.get(), want) {
		t.Fatalf("after Open log = %v, want %v", log.get(), want)
	}
	if _, err := resources.Get(ctx, b); err != nil {
		t.Fatal(err)
	}
	if len(log.get()) != 3 {
		t.Errorf("Get of an eager singleton constructed again: %v", log.get())
	}
}

func TestOpenFailureClosesEagerSingletonsBuiltSoFar(t *testing.T) {
	log := &recorder{}
	a, b := key("A"), key("B")
	reg := mustRegistry(t,
		resources.Bind(a, provide(log, "A")).Eager(),
		resources.Bind(b, func(*resources.Resolver) (*thing, error) { return nil, errors.New("nope") }).Eager(),
	)
	ctx, err := reg.Open()
	if ctx != nil || err == nil || err.Error() != "Provider for B failed: nope" {
		t.Fatalf("Open = %v, %v", ctx, err)
	}
	if want := []string{"new A", "close A"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v", log.get(), want)
	}
}

func TestCyclePathIsDeterministic(t *testing.T) {
	log := &recorder{}
	x, a, b, c, d := key("X"), key("A"), key("B"), key("C"), key("D")
	reg := mustRegistry(t,
		resources.Bind(x, provide(log, "X", d, a)),
		resources.Bind(a, provide(log, "A", d, b)),
		resources.Bind(b, provide(log, "B", c)),
		resources.Bind(c, provide(log, "C", d, a, b)),
		resources.Bind(d, provide(log, "D")),
	)
	for i := range 100 {
		ctx := mustOpen(t, reg)
		_, err := resources.Get(ctx, x)
		if want := "Circular dependency: A -> B -> C -> A"; err == nil || err.Error() != want {
			t.Fatalf("run %d: err = %v, want %q", i, err, want)
		}
		var re *resources.Error
		if !errors.As(err, &re) || !slices.Equal(re.Path, []string{"A", "B", "C", "A"}) {
			t.Fatalf("run %d: Path = %v", i, re.Path)
		}
		ctx.Close()
	}
}

func TestConcurrentCrossCycleFailsInsteadOfDeadlocking(t *testing.T) {
	a, b := key("A"), key("B")
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	reg := mustRegistry(t,
		resources.Bind(a, func(r *resources.Resolver) (*thing, error) {
			close(aStarted)
			<-bStarted
			_, err := resources.Get(r, b)
			return &thing{}, err
		}),
		resources.Bind(b, func(r *resources.Resolver) (*thing, error) {
			close(bStarted)
			<-aStarted
			_, err := resources.Get(r, a)
			return &thing{}, err
		}),
	)
	ctx := mustOpen(t, reg)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, k := range []resources.Key[*thing]{a, b} {
		wg.Go(func() { _, errs[i] = resources.Get(ctx, k) })
	}
	wg.Wait()
	if errs[0] == nil || errs[1] == nil {
		t.Fatalf("errors = %v", errs)
	}
	if errs[0].Error() != errs[1].Error() {
		t.Errorf("the two Gets report different cycles: %q, %q", errs[0], errs[1])
	}
	if got := errs[0].Error(); got != "Circular dependency: A -> B -> A" && got != "Circular dependency: B -> A -> B" {
		t.Errorf("error = %q", got)
	}
}

func TestCloseRunsInReverseConstructionOrder(t *testing.T) {
	log := &recorder{}
	a, b, c, s := key("A"), key("B"), key("C"), key("S")
	t1, t2 := key("T1"), key("T2")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, provide(log, "A")),
		resources.Bind(b, provide(log, "B", a)),
		resources.Bind(c, provide(log, "C")),
		resources.Bind(s, provide(log, "S")),
		resources.Bind(t1, provide(log, "T1")).Scope(resources.ToolCall),
		resources.Bind(t2, provide(log, "T2", t1, s)).Scope(resources.ToolCall),
	))
	for _, k := range []resources.Key[*thing]{c, b} {
		if _, err := resources.Get(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	ctx.BeginToolCall()
	if _, err := resources.Get(ctx, t2); err != nil {
		t.Fatal(err)
	}
	if err := ctx.EndToolCall(); err != nil {
		t.Fatal(err)
	}
	ctx.BeginToolCall()
	if _, err := resources.Get(ctx, t1); err != nil {
		t.Fatal(err)
	}
	if err := ctx.Close(); err != nil { // tool call still open: closed first
		t.Fatal(err)
	}
	want := []string{
		"new C", "new A", "new B",
		"new T1", "new S", "new T2", "close T2", "close T1",
		"new T1", "close T1",
		"close S", "close B", "close A", "close C",
	}
	if got := log.get(); !slices.Equal(got, want) {
		t.Errorf("log =\n%v\nwant\n%v", got, want)
	}
}

func TestCloseErrorsAreJoinedAndEveryInstanceIsClosed(t *testing.T) {
	log := &recorder{}
	a, b, c := key("A"), key("B"), key("C")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, func(*resources.Resolver) (*thing, error) {
			return &thing{name: "A", log: log, closeErr: errors.New("a stuck")}, nil
		}),
		resources.Bind(b, provide(log, "B")).OnClose(func(*thing) error { panic("b exploded") }),
		resources.Bind(c, func(*resources.Resolver) (*thing, error) {
			return &thing{name: "C", log: log, closeErr: errors.New("c stuck")}, nil
		}),
	))
	for _, k := range []resources.Key[*thing]{a, b, c} {
		if _, err := resources.Get(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	err := ctx.Close()
	want := "Close for C failed: c stuck\nClose for B failed: panic: b exploded\nClose for A failed: a stuck"
	if err == nil || err.Error() != want {
		t.Fatalf("Close = %v, want %q", err, want)
	}
	if !errors.Is(err, resources.ErrClose) {
		t.Error("errors.Is(err, ErrClose) = false")
	}
	if got := log.get(); !slices.Contains(got, "close A") || !slices.Contains(got, "close C") {
		t.Errorf("not every instance closed: %v", got)
	}
}

func TestEndToolCallJoinsCloseErrors(t *testing.T) {
	t1 := key("T1")
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(t1, func(*resources.Resolver) (*thing, error) {
		return &thing{name: "T1", log: &recorder{}, closeErr: errors.New("flush failed")}, nil
	}).Scope(resources.ToolCall)))
	ctx.BeginToolCall()
	if _, err := resources.Get(ctx, t1); err != nil {
		t.Fatal(err)
	}
	if err := ctx.EndToolCall(); err == nil || err.Error() != "Close for T1 failed: flush failed" {
		t.Fatalf("EndToolCall = %v", err)
	}
}

func TestPostConstructFailureClosesTheInstanceAndIsNotCached(t *testing.T) {
	log := &recorder{}
	k := key("Filesystem")
	fail := true
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(k, provide(log, "fs")).PostConstruct(func(t *thing) error {
			t.log.add("post " + t.name)
			if fail {
				return errors.New("mount failed")
			}
			return nil
		}),
	))
	_, err := resources.Get(ctx, k)
	if want := "Post-construct for Filesystem failed: mount failed"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if want := []string{"new fs", "post fs", "close fs"}; !slices.Equal(log.get(), want) {
		t.Fatalf("log = %v, want %v", log.get(), want)
	}
	fail = false
	if _, err := resources.Get(ctx, k); err != nil {
		t.Fatalf("retry after failure: %v", err)
	}
	if got := log.get(); len(got) != 5 || got[3] != "new fs" || got[4] != "post fs" {
		t.Errorf("retry log = %v", got)
	}
}

func TestPostConstructFailureJoinsCloseFailure(t *testing.T) {
	k := key("Filesystem")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(k, provide(&recorder{}, "fs")).
			PostConstruct(func(*thing) error { return errors.New("mount failed") }).
			OnClose(func(*thing) error { return errors.New("umount failed") }),
	))
	_, err := resources.Get(ctx, k)
	want := "Post-construct for Filesystem failed: mount failed\nClose for Filesystem failed: umount failed"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if !errors.Is(err, resources.ErrPostConstruct) || !errors.Is(err, resources.ErrClose) {
		t.Error("joined error does not match both kinds")
	}
}

// initThing implements PostConstructor.
type initThing struct {
	thing
	inits int
}

func (i *initThing) PostConstruct() error { i.inits++; return nil }

func TestInterfaceHooksAndExplicitOverrides(t *testing.T) {
	log := &recorder{}
	auto := resources.NewKey[*initThing]("Auto")
	hooked := resources.NewKey[*initThing]("Hooked")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(auto, func(*resources.Resolver) (*initThing, error) {
			return &initThing{thing: thing{name: "Auto", log: log}}, nil
		}),
		resources.Bind(hooked, func(*resources.Resolver) (*initThing, error) {
			return &initThing{thing: thing{name: "Hooked", log: log}}, nil
		}).PostConstruct(func(*initThing) error { log.add("explicit post"); return nil }).
			OnClose(func(*initThing) error { log.add("explicit close"); return nil }),
	))
	a, err := resources.Get(ctx, auto)
	if err != nil {
		t.Fatal(err)
	}
	h, err := resources.Get(ctx, hooked)
	if err != nil {
		t.Fatal(err)
	}
	if a.inits != 1 {
		t.Errorf("PostConstruct method ran %d times, want 1", a.inits)
	}
	if h.inits != 0 {
		t.Errorf("explicit hook did not replace the PostConstruct method")
	}
	if err := ctx.Close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"explicit post", "explicit close", "close Auto"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v", log.get(), want)
	}
}

func TestToolCallScopeInstancesAreFreshPerCallAndSharedWithin(t *testing.T) {
	log := &recorder{}
	tr := key("Tracer")
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(tr, provide(log, "Tracer")).Scope(resources.ToolCall)))
	ctx.BeginToolCall()
	if !ctx.InToolCall() {
		t.Error("InToolCall = false inside a tool call")
	}
	a1, _ := resources.Get(ctx, tr)
	a2, _ := resources.Get(ctx, tr)
	ctx.BeginToolCall() // nested
	n1, _ := resources.Get(ctx, tr)
	if err := ctx.EndToolCall(); err != nil {
		t.Fatal(err)
	}
	a3, _ := resources.Get(ctx, tr)
	if err := ctx.EndToolCall(); err != nil {
		t.Fatal(err)
	}
	ctx.BeginToolCall()
	b1, _ := resources.Get(ctx, tr)
	ctx.EndToolCall()
	if ctx.InToolCall() {
		t.Error("InToolCall = true after EndToolCall")
	}
	if a1 == nil || a1 != a2 || a1 != a3 {
		t.Error("one tool call got different instances")
	}
	if n1 == a1 || b1 == a1 || b1 == n1 {
		t.Error("different tool calls shared an instance")
	}
	if want := []string{"new Tracer", "new Tracer", "close Tracer", "close Tracer", "new Tracer", "close Tracer"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v", log.get(), want)
	}
}

func TestToolCallDependingOnSingletonIsAllowed(t *testing.T) {
	log := &recorder{}
	s, tr := key("S"), key("Tracer")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(s, provide(log, "S")),
		resources.Bind(tr, provide(log, "Tracer", s)).Scope(resources.ToolCall),
	))
	ctx.BeginToolCall()
	if _, err := resources.Get(ctx, tr); err != nil {
		t.Fatal(err)
	}
	ctx.EndToolCall()
	if want := []string{"new S", "new Tracer", "close Tracer"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v (singleton survives the tool call)", log.get(), want)
	}
}

func TestConstructionFinishingAfterItsToolCallEndedIsClosed(t *testing.T) {
	log := &recorder{}
	tr := key("Tracer")
	started, release := make(chan struct{}), make(chan struct{})
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(tr, func(*resources.Resolver) (*thing, error) {
		close(started)
		<-release
		return &thing{name: "Tracer", log: log}, nil
	}).Scope(resources.ToolCall)))
	ctx.BeginToolCall()
	done := make(chan error)
	go func() { _, err := resources.Get(ctx, tr); done <- err }()
	<-started
	if err := ctx.EndToolCall(); err != nil {
		t.Fatal(err)
	}
	close(release)
	err := <-done
	if want := "Tool call ended while Tracer was being constructed"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if want := []string{"close Tracer"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v", log.get(), want)
	}
}

func TestPrototypeIsNewPerGetAndNeverClosed(t *testing.T) {
	log := &recorder{}
	p := key("Builder")
	posts := 0
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(p, provide(log, "Builder")).
		Scope(resources.Prototype).PostConstruct(func(*thing) error { posts++; return nil })))
	a, _ := resources.Get(ctx, p)
	b, _ := resources.Get(ctx, p)
	ctx.BeginToolCall()
	c, _ := resources.Get(ctx, p)
	ctx.EndToolCall()
	ctx.Close()
	if a == b || b == c || a == nil {
		t.Error("prototype Gets shared an instance")
	}
	if posts != 3 {
		t.Errorf("post-construct ran %d times, want 3", posts)
	}
	if want := []string{"new Builder", "new Builder", "new Builder"}; !slices.Equal(log.get(), want) {
		t.Errorf("log = %v, want %v (prototypes are never closed)", log.get(), want)
	}
}

func TestInstanceBindingIsReturnedAsIsAndNotClosed(t *testing.T) {
	log := &recorder{}
	k := key("Filesystem")
	fs := &initThing{thing: thing{name: "fs", log: log}}
	ik := resources.NewKey[*initThing]("FS")
	ctx := mustOpen(t, mustRegistry(t, resources.Instance(ik, fs), resources.Bind(k, provide(log, "other"))))
	got, err := resources.Get(ctx, ik)
	if err != nil || got != fs {
		t.Fatalf("Get = %v, %v; want the instance", got, err)
	}
	ctx.Close()
	if fs.inits != 0 {
		t.Error("Instance value was post-constructed")
	}
	if len(log.get()) != 0 {
		t.Errorf("Instance value was closed: %v", log.get())
	}
}

type iface interface{ Hello() string }

func TestNilInterfaceValueResolvesToZero(t *testing.T) {
	k := resources.NewKey[iface]("Greeter")
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(k, func(*resources.Resolver) (iface, error) { return nil, nil })))
	v, err := resources.Get(ctx, k)
	if err != nil || v != nil {
		t.Fatalf("Get = %v, %v", v, err)
	}
}

func TestSnapshotablesInConstructionOrder(t *testing.T) {
	log := &recorder{}
	inst := &thing{name: "Inst", log: log}
	ik, a, b, plain, tc := key("Inst"), key("A"), key("B"), resources.NewKey[string]("Plain"), key("TC")
	ctx := mustOpen(t, mustRegistry(t,
		resources.Bind(a, provide(log, "A")),
		resources.Bind(b, provide(log, "B")),
		resources.Bind(plain, func(*resources.Resolver) (string, error) { return "x", nil }),
		resources.Bind(tc, provide(log, "TC", b)).Scope(resources.ToolCall),
		resources.Instance(ik, inst),
	))
	names := func() []string {
		var out []string
		for _, s := range ctx.Snapshotables() {
			out = append(out, s.(*thing).name)
		}
		return out
	}
	if _, err := resources.Get(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := resources.Get(ctx, plain); err != nil {
		t.Fatal(err)
	}
	ctx.BeginToolCall()
	if _, err := resources.Get(ctx, tc); err != nil { // constructs B (singleton) then TC
		t.Fatal(err)
	}
	if want := []string{"Inst", "A", "B", "TC"}; !slices.Equal(names(), want) {
		t.Errorf("in tool call: %v, want %v", names(), want)
	}
	ctx.EndToolCall()
	if want := []string{"Inst", "A", "B"}; !slices.Equal(names(), want) {
		t.Errorf("after tool call: %v, want %v", names(), want)
	}
	// Restoring through the interface reaches the instance.
	snaps := ctx.Snapshotables()
	s, _ := snaps[1].Snapshot()
	got, _ := resources.Get(ctx, a)
	got.state = 7
	snaps[1].Restore(s)
	if got.state != 0 {
		t.Errorf("Restore did not reach the instance: state = %d", got.state)
	}
}

func TestConcurrentGetOfOneSingletonRunsProviderOnce(t *testing.T) {
	k := key("Shared")
	var calls atomic.Int32
	release := make(chan struct{})
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(k, func(*resources.Resolver) (*thing, error) {
		calls.Add(1)
		<-release
		return &thing{name: "Shared"}, nil
	})))
	const n = 32
	got := make([]*thing, n)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(n)
	for i := range n {
		wg.Go(func() {
			started.Done()
			v, err := resources.Get(ctx, k)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	started.Wait()
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("provider ran %d times, want 1", calls.Load())
	}
	for i := range got {
		if got[i] == nil || got[i] != got[0] {
			t.Fatalf("Get %d returned %p, Get 0 %p", i, got[i], got[0])
		}
	}
}

func TestConcurrentGetsWithSharedDependencies(t *testing.T) {
	log := &recorder{}
	base := key("Base")
	var keys []resources.Key[*thing]
	var bs []resources.Binding
	bs = append(bs, resources.Bind(base, provide(log, "Base")))
	for i := range 8 {
		k := key(fmt.Sprint("K", i))
		keys = append(keys, k)
		bs = append(bs, resources.Bind(k, provide(log, k.Name(), base)))
	}
	ctx := mustOpen(t, mustRegistry(t, bs...))
	var wg sync.WaitGroup
	for range 4 {
		for _, k := range keys {
			wg.Go(func() {
				if _, err := resources.Get(ctx, k); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	if got := log.get(); len(got) != 9 || got[0] != "new Base" {
		t.Errorf("log = %v, want Base first and each resource once", got)
	}
}

func TestProviderPanicReleasesWaitersAndPropagates(t *testing.T) {
	k := key("Panicky")
	started, release := make(chan struct{}), make(chan struct{})
	first := true
	ctx := mustOpen(t, mustRegistry(t, resources.Bind(k, func(*resources.Resolver) (*thing, error) {
		if first {
			first = false
			close(started)
			<-release
			panic("kaboom")
		}
		return &thing{name: "ok"}, nil
	})))
	panicked := make(chan any)
	go func() {
		defer func() { panicked <- recover() }()
		resources.Get(ctx, k)
	}()
	<-started
	waiter := make(chan error)
	go func() { _, err := resources.Get(ctx, k); waiter <- err }()
	// The waiter may or may not be waiting yet; either way it must not hang
	// and must not run the provider while the first construction is running.
	close(release)
	if p := <-panicked; p != "kaboom" {
		t.Fatalf("panic = %v, want kaboom", p)
	}
	if err := <-waiter; err != nil && err.Error() != "Provider for Panicky panicked" {
		t.Fatalf("waiter err = %v", err)
	}
	if v, err := resources.Get(ctx, k); err != nil || v.name != "ok" {
		t.Fatalf("retry after panic = %v, %v", v, err)
	}
}

func TestRegistryWithOverridesInPlace(t *testing.T) {
	log := &recorder{}
	a, b, c := key("A"), key("B"), key("C")
	reg := mustRegistry(t, resources.Bind(a, provide(log, "A")), resources.Bind(b, provide(log, "B")))
	over, err := reg.With(resources.Instance(a, &thing{name: "A2"}), resources.Bind(c, provide(log, "C")))
	if err != nil {
		t.Fatal(err)
	}
	if over.Len() != 3 || !over.Has(c) || reg.Has(c) {
		t.Fatalf("Len = %d, Has(C) = %v / %v", over.Len(), over.Has(c), reg.Has(c))
	}
	ctx := mustOpen(t, over)
	v, _ := resources.Get(ctx, a)
	if v.name != "A2" {
		t.Errorf("override not used: %v", v.name)
	}
	if _, err := reg.With(resources.Bind(key("B"), provide(log, "B"))); err == nil || err.Error() != "Duplicate binding for B" {
		t.Errorf("With a second key named B = %v", err)
	}
}

func TestBuilderChangesAfterNewRegistryDoNotLeak(t *testing.T) {
	k := key("K")
	bb := resources.Bind(k, provide(&recorder{}, "K"))
	reg := mustRegistry(t, bb)
	bb.Scope(resources.ToolCall)
	ctx := mustOpen(t, reg)
	if _, err := resources.Get(ctx, k); err != nil {
		t.Fatalf("registry saw a later builder change: %v", err)
	}
}

func TestScopeString(t *testing.T) {
	for s, want := range map[resources.Scope]string{
		resources.Singleton: "singleton", resources.ToolCall: "tool-call", resources.Prototype: "prototype", 7: "Scope(7)",
	} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}

func TestNewKeyPanicsOnEmptyName(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "empty name") {
			t.Errorf("panic = %v", p)
		}
	}()
	resources.NewKey[int]("")
}

func BenchmarkGetCachedSingleton(b *testing.B) {
	k := key("K")
	reg, _ := resources.NewRegistry(resources.Bind(k, provide(&recorder{}, "K")))
	ctx, _ := reg.Open()
	resources.Get(ctx, k)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := resources.Get(ctx, k); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToolCallScope(b *testing.B) {
	s, tr := key("S"), key("Tracer")
	reg, _ := resources.NewRegistry(
		resources.Bind(s, provide(&recorder{}, "S")),
		resources.Bind(tr, func(r *resources.Resolver) (*thing, error) {
			resources.Get(r, s)
			return &thing{}, nil
		}).Scope(resources.ToolCall),
	)
	ctx, _ := reg.Open()
	b.ReportAllocs()
	for b.Loop() {
		ctx.BeginToolCall()
		if _, err := resources.Get(ctx, tr); err != nil {
			b.Fatal(err)
		}
		ctx.EndToolCall()
	}
}
