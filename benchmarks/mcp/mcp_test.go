package mcpbench_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	mcpbench "github.com/winkgen/wink/benchmarks/mcp"
)

// Server processes: the test binary re-executed with serveEnv set serves one implementation on a
// loopback port it prints, plus /stats (its CPU time, and with ?gc=1 its live heap after a collection,
// and goroutines), until its standard input closes.
const serveEnv = "WINK_MCPBENCH_SERVE" // "wink stateful", "sdk stateless", ...

// heapProfileEnv names a file a server process writes its heap profile to whenever /stats measures its
// live heap (the last one stays): WINK_MCPBENCH_HEAPPROFILE=/tmp/heap.out, then go tool pprof.
const heapProfileEnv = "WINK_MCPBENCH_HEAPPROFILE"

// cpuProfileEnv names a file prefix each server process writes its CPU profile to, from its start to its
// end, as PREFIX.IMPL-MODE (WINK_MCPBENCH_CPUPROFILE=/tmp/cpu gives /tmp/cpu.wink-stateful and so on):
// where a server's time goes, beside the other implementation's.
const cpuProfileEnv = "WINK_MCPBENCH_CPUPROFILE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(serveEnv); spec != "" {
		serve(spec)
		return
	}
	code := m.Run()
	stopServers()
	os.Exit(code)
}

func serve(spec string) {
	impl, mode, _ := strings.Cut(spec, " ")
	stateless := mode == "stateless"
	var h http.Handler
	switch impl {
	case mcpbench.Wink:
		var err error
		if h, err = mcpbench.WinkHandler(stateless); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case mcpbench.SDK:
		h = mcpbench.SDKHandler(stateless)
	default:
		fmt.Fprintln(os.Stderr, "unknown implementation", impl)
		os.Exit(2)
	}
	if prefix := os.Getenv(cpuProfileEnv); prefix != "" {
		if f, err := os.Create(prefix + "." + impl + "-" + mode); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("/stats", func(w http.ResponseWriter, r *http.Request) {
		cpu := processCPU()
		rss, peak := residentMemory() // as the process stands, before the collection below
		var heap, stack uint64
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap, stack = ms.HeapAlloc, ms.StackInuse
			if path := os.Getenv(heapProfileEnv); path != "" {
				if f, err := os.Create(path); err == nil {
					_ = pprof.WriteHeapProfile(f)
					_ = f.Close()
				}
			}
		}
		fmt.Fprintf(w, "%d %d %d %d %d %d\n", cpu, heap, stack, runtime.NumGoroutine(), rss, peak)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString(0) // returns when the benchmark closes our stdin or exits
		pprof.StopCPUProfile()
		os.Exit(0)
	}()
	_ = http.Serve(ln, mux)
}

// server is a running server process.
type server struct {
	cmd  *exec.Cmd
	in   interface{ Close() error }
	base string // http://addr
}

var (
	serversMu sync.Mutex
	servers   = map[string]*server{}
)

// startServer starts a new server process for spec ("wink stateful").
func startServer(tb testing.TB, spec string) *server {
	tb.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveEnv+"="+spec, "GOMAXPROCS="+strconv.Itoa(runtime.GOMAXPROCS(0)))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatalf("server %s: %v", spec, err)
	}
	return &server{cmd: cmd, in: in, base: "http://" + strings.TrimSpace(addr)}
}

// sharedServer returns the process serving spec for the calls benchmarks, started once per run.
func sharedServer(tb testing.TB, spec string) *server {
	serversMu.Lock()
	defer serversMu.Unlock()
	if s := servers[spec]; s != nil {
		return s
	}
	s := startServer(tb, spec)
	servers[spec] = s
	return s
}

func (s *server) stop() {
	_ = s.in.Close()
	_ = s.cmd.Wait()
}

func stopServers() {
	serversMu.Lock()
	defer serversMu.Unlock()
	for _, s := range servers {
		s.stop()
	}
}

// stats returns the server's CPU time, and with gc its live heap after a collection, its goroutine
// stacks, and its goroutines.
func (s *server) stats(tb testing.TB, gc bool) (cpu time.Duration, heap, stack uint64, goroutines int) {
	st := s.allStats(tb, gc)
	return st.cpu, st.heap, st.stack, st.goroutines
}

// serverStats is what /stats tells: rss and peak are the process's resident memory and its peak
// (Linux; 0 elsewhere), read before the collection that measures heap.
type serverStats struct {
	cpu         time.Duration
	heap, stack uint64
	goroutines  int
	rss, peak   uint64
}

func (s *server) allStats(tb testing.TB, gc bool) serverStats {
	tb.Helper()
	u := s.base + "/stats"
	if gc {
		u += "?gc=1"
	}
	resp, err := http.Get(u)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var c int64
	var st serverStats
	if _, err := fmt.Fscan(resp.Body, &c, &st.heap, &st.stack, &st.goroutines, &st.rss, &st.peak); err != nil {
		tb.Fatal(err)
	}
	st.cpu = time.Duration(c)
	return st
}

// connect opens an SDK client session with the server.
func (s *server) connect(tb testing.TB) *mcp.ClientSession {
	tb.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "dev"}, nil)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// callArgs are the benchmark's calls with their arguments decoded once.
var callArgs = func() []*mcp.CallToolParams {
	var out []*mcp.CallToolParams
	for _, c := range mcpbench.Calls {
		out = append(out, &mcp.CallToolParams{Name: c.Name, Arguments: json.RawMessage(c.Args)})
	}
	return out
}()

// call makes the i-th call of the rotation in cs and checks its answer.
func call(tb testing.TB, cs *mcp.ClientSession, i int) {
	res, err := cs.CallTool(context.Background(), callArgs[i%len(callArgs)])
	if err != nil {
		tb.Fatal(err)
	}
	if res.IsError || res.StructuredContent == nil {
		tb.Fatalf("%s: error %v, structured content %v", callArgs[i%len(callArgs)].Name, res.IsError, res.StructuredContent)
	}
}

// run makes n calls from the sessions, each session in its own goroutine taking calls in turn.
func run(tb testing.TB, sessions []*mcp.ClientSession, n int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				call(tb, cs, i)
			}
		})
	}
	wg.Wait()
}

var impls = []string{mcpbench.Wink, mcpbench.SDK}

// BenchmarkCalls: calls per second and the server's CPU time per call, with 1, 8 and 64 clients (one
// SDK client session each) calling the three tools in turn.
func BenchmarkCalls(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		for _, clients := range []int{1, 8, 64} {
			for _, impl := range impls {
				b.Run("mode="+mode+"/clients="+strconv.Itoa(clients)+"/impl="+impl, func(b *testing.B) {
					s := sharedServer(b, impl+" "+mode)
					sessions := make([]*mcp.ClientSession, clients)
					for i := range sessions {
						sessions[i] = s.connect(b)
					}
					run(b, sessions, clients) // each session once: warm
					cpu0, _, _, _ := s.stats(b, false)
					b.ResetTimer()
					start := time.Now()
					run(b, sessions, b.N)
					elapsed := time.Since(start)
					b.StopTimer()
					cpu1, _, _, _ := s.stats(b, false)
					b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
					b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N), "server-µs/call")
					for _, cs := range sessions {
						cs.Close()
					}
				})
			}
		}
	}
}

// BenchmarkLiveHeap: the server's live heap after many calls on one session (WINK_MCPBENCH_CALLS,
// default 100,000, from 8 goroutines), and its growth over a fresh server's: what a long session
// keeps; and the process's resident memory then (rss-MiB, and its peak, peak-rss-MiB; Linux), what the
// machine sees: the heap with the collector's headroom and what the runtime has not returned, the
// stacks, the binary. Both servers are the same binary, so the difference is what each one keeps.
// Run it with -benchtime 1x.
func BenchmarkLiveHeap(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("WINK_MCPBENCH_CALLS")); err == nil && v > 0 {
		n = v
	}
	for _, impl := range impls {
		b.Run("impl="+impl, func(b *testing.B) {
			for b.Loop() {
				s := startServer(b, impl+" stateful")
				cs := s.connect(b)
				call(b, cs, 0)
				_, heap0, _, _ := s.stats(b, true)
				run(b, []*mcp.ClientSession{cs, cs, cs, cs, cs, cs, cs, cs}, n)
				st := s.allStats(b, true)
				b.ReportMetric(float64(st.heap)/(1<<20), "server-MiB")
				b.ReportMetric((float64(st.heap)-float64(heap0))/(1<<20), "growth-MiB")
				if st.rss > 0 {
					b.ReportMetric(float64(st.rss)/(1<<20), "rss-MiB")
					b.ReportMetric(float64(st.peak)/(1<<20), "peak-rss-MiB")
				}
				cs.Close()
				s.stop()
			}
		})
	}
}

// BenchmarkIdleSession: what one idle session costs the server (live heap, goroutine stacks and
// goroutines), measured over 500 sessions that each made one call. Run it with -benchtime 1x.
func BenchmarkIdleSession(b *testing.B) {
	const n = 500
	for _, impl := range impls {
		b.Run("impl="+impl, func(b *testing.B) {
			for b.Loop() {
				s := startServer(b, impl+" stateful")
				warm := s.connect(b)
				call(b, warm, 0)
				_, heap0, stack0, g0 := s.stats(b, true)
				sessions := make([]*mcp.ClientSession, n)
				for i := range sessions {
					sessions[i] = s.connect(b)
					call(b, sessions[i], i)
				}
				_, heap1, stack1, g1 := s.stats(b, true)
				b.ReportMetric((float64(heap1)-float64(heap0))/n/1024, "heap-KiB/session")
				b.ReportMetric((float64(stack1)-float64(stack0))/n/1024, "stack-KiB/session")
				b.ReportMetric(float64(g1-g0)/n, "goroutines/session")
				for _, cs := range sessions {
					cs.Close()
				}
				warm.Close()
				s.stop()
			}
		})
	}
}

// TestServersAnswerTheSameCalls: both servers list the three tools and answer each call with the
// same structured content, so the benchmarks compare the same work.
func TestServersAnswerTheSameCalls(t *testing.T) {
	answers := map[string][]string{}
	for _, impl := range impls {
		s := startServer(t, impl+" stateful")
		cs := s.connect(t)
		lt, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(lt.Tools) != len(mcpbench.Calls) {
			t.Errorf("%s lists %d tools, want %d", impl, len(lt.Tools), len(mcpbench.Calls))
		}
		for i := range callArgs {
			res, err := cs.CallTool(context.Background(), callArgs[i])
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Errorf("%s: %s answers an error: %v", callArgs[i].Name, impl, res.Content)
			}
			b, _ := json.Marshal(res.StructuredContent)
			if impl == mcpbench.Wink && bytes.HasPrefix(b, []byte(`{"result":`)) {
				// wink states every result in an envelope, {"result": value}, on every protocol version.
				b = bytes.TrimSuffix(bytes.TrimPrefix(b, []byte(`{"result":`)), []byte("}"))
			}
			answers[impl] = append(answers[impl], string(b))
		}
		cs.Close()
		s.stop()
	}
	for i := range callArgs {
		if w, s := answers[mcpbench.Wink][i], answers[mcpbench.SDK][i]; w != s {
			t.Errorf("%s: wink answers %s, the SDK server %s", callArgs[i].Name, w, s)
		}
	}
}
