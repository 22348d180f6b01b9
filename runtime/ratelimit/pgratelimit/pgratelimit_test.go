package pgratelimit_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/winkgen/wink/internal/pgcluster"
	"github.com/winkgen/wink/internal/pgtest"
	"github.com/winkgen/wink/runtime/ratelimit"
	"github.com/winkgen/wink/runtime/ratelimit/internal/ratetest"
	"github.com/winkgen/wink/runtime/ratelimit/pgratelimit"
	"github.com/winkgen/wink/runtime/wink"
)

func TestMain(m *testing.M) {
	if os.Getenv("PGRATELIMIT_WORKER") != "" {
		os.Exit(worker())
	}
	pgtest.Main(m)
}

// fleetLimits are the limits of the fleet tests: no refill within a test (one token an hour), so what is
// admitted in all is exactly the bursts.
var fleetLimits = ratelimit.Limits{
	Server:       wink.Rate{Count: 1, Per: time.Hour, Burst: 300},
	PerPrincipal: wink.Rate{Count: 1, Per: time.Hour, Burst: 25},
}

func open(t testing.TB, dsn string) (*pgratelimit.Store, *pgxpool.Pool) {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s, err := pgratelimit.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	return s, pool
}

func dispatcher(t testing.TB, limits ratelimit.Limits, s ratelimit.Store) *wink.Dispatcher {
	t.Helper()
	l, err := ratelimit.New(limits, s)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		t.Fatal(err)
	}
	return &wink.Dispatcher{Registry: reg, RateLimit: l}
}

func as(sub string) context.Context {
	return wink.WithPrincipal(context.Background(), &wink.Principal{Subject: sub, Issuer: "https://as.example"})
}

// hammer makes calls of lookup from goroutines goroutines, callsEach each, the i-th call of goroutine g
// for subjects[(g+i)%len(subjects)], and returns how many each subject had admitted.
func hammer(d *wink.Dispatcher, subjects []string, goroutines, callsEach int) (map[string]int, error) {
	var mu sync.Mutex
	got := map[string]int{}
	var firstErr error
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range callsEach {
				sub := subjects[(g+i)%len(subjects)]
				out, err := d.Dispatch(as(sub), wink.Call{ID: "c", Name: "lookup", Arguments: []byte(`{"id":1}`)})
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil && out.Success {
					got[sub]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return got, firstErr
}

// worker is a worker process of the fleet test: PGRATELIMIT_N calls from 8 goroutines for the subjects of
// PGRATELIMIT_SUBJECTS (comma-separated), on the database PGRATELIMIT_DSN; it prints "subject count" lines.
func worker() int {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, os.Getenv("PGRATELIMIT_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer pool.Close()
	s, err := pgratelimit.New(ctx, pool)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	l, err := ratelimit.New(fleetLimits, s)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	reg, err := wink.NewRegistry(ratetest.WinkTools())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	n, _ := strconv.Atoi(os.Getenv("PGRATELIMIT_N"))
	got, err := hammer(&wink.Dispatcher{Registry: reg, RateLimit: l}, strings.Split(os.Getenv("PGRATELIMIT_SUBJECTS"), ","), 8, n/8)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for sub, c := range got {
		fmt.Println(sub, c)
	}
	return 0
}

// fleet runs two worker processes on dsn, each making n calls for subjects, and returns what they had
// admitted together, per subject.
func fleet(t *testing.T, dsn string, subjects []string, n int) map[string]int {
	t.Helper()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PGRATELIMIT_WORKER=1", "PGRATELIMIT_DSN="+dsn, "PGRATELIMIT_N="+strconv.Itoa(n),
			"PGRATELIMIT_SUBJECTS="+strings.Join(subjects, ","))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	total := map[string]int{}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(outs[i].String()), "\n") {
			if line == "" {
				continue
			}
			sub, num, _ := strings.Cut(line, " ")
			k, _ := strconv.Atoi(num)
			total[sub] += k
		}
	}
	return total
}

// TestTwoProcessesNeverExceedTheBucket: two worker processes on one database, 8 goroutines each, make 400
// calls for one principal whose bucket holds 25; together they are admitted exactly 25 times. Then 16
// principals, 800 calls per process: none is admitted more than its 25, and all together exactly what the
// server's bucket (300) had left.
func TestTwoProcessesNeverExceedTheBucket(t *testing.T) {
	dsn := pgtest.DSN(t)
	open(t, dsn)
	if got := fleet(t, dsn, []string{"one"}, 400); got["one"] != 25 {
		t.Fatalf("one principal, 800 calls in 2 processes: admitted %d, want exactly 25", got["one"])
	}
	var subs []string
	for i := range 16 {
		subs = append(subs, "p"+strconv.Itoa(i))
	}
	got := fleet(t, dsn, subs, 800)
	total := 0
	for _, s := range subs {
		if got[s] > 25 {
			t.Errorf("%s admitted %d times, more than its 25", s, got[s])
		}
		total += got[s]
	}
	if total != 300-25 {
		t.Errorf("16 principals in 2 processes admitted %d in all, want the server's remaining 275", total)
	}
}

// TestManyGoroutinesOnOneDatabase: 64 goroutines of one process, one principal, then many.
func TestManyGoroutinesOnOneDatabase(t *testing.T) {
	s, _ := open(t, pgtest.DSN(t))
	d := dispatcher(t, fleetLimits, s)
	got, err := hammer(d, []string{"one"}, 64, 5)
	if err != nil || got["one"] != 25 {
		t.Fatalf("one principal, 320 calls: admitted %d (%v), want 25", got["one"], err)
	}
	var subs []string
	for i := range 40 {
		subs = append(subs, "q"+strconv.Itoa(i))
	}
	got, err = hammer(d, subs, 64, 10)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range subs {
		if got[s] > 25 {
			t.Errorf("%s admitted %d times", s, got[s])
		}
		total += got[s]
	}
	if total != 275 {
		t.Errorf("admitted %d in all, want 275", total)
	}
}

// TestRefusalOnPostgresSaysWhenToRetry: send_email (rate=3/h burst=2) on the database: the third call is
// refused with the 20 minutes the next token takes, by the database's clock; another caller is not.
func TestRefusalOnPostgresSaysWhenToRetry(t *testing.T) {
	s, _ := open(t, pgtest.DSN(t))
	d := dispatcher(t, ratelimit.Limits{}, s)
	alice := as("alice")
	var out wink.Outcome
	for i := range 3 {
		var err error
		out, err = d.Dispatch(alice, wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"x"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 && !out.Success {
			t.Fatalf("call %d: %s", i, out.Output)
		}
	}
	if out.Success || out.RetryAfter < 19*time.Minute || out.RetryAfter > 20*time.Minute ||
		!strings.Contains(out.Output, `tool "send_email" was not called: this tool's rate limit for the caller (3/h burst=2) is used up; call it again in `) {
		t.Fatalf("third call: %+v", out)
	}
	if out, err := d.Dispatch(as("bob"), wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"x"}`)}); err != nil || !out.Success {
		t.Fatalf("bob: %+v %v", out, err)
	}
}

// TestRefillFollowsTheDatabaseClock: a bucket of 10/s with a burst of 2, hammered for 1.5 s, admits at
// most 2 + 10 per second elapsed, and refills (more than the burst is admitted in all).
func TestRefillFollowsTheDatabaseClock(t *testing.T) {
	s, _ := open(t, pgtest.DSN(t))
	d := dispatcher(t, ratelimit.Limits{PerPrincipal: wink.Rate{Count: 10, Per: time.Second, Burst: 2}}, s)
	var admitted atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Since(start) < 1500*time.Millisecond {
				out, err := d.Dispatch(as("r"), wink.Call{ID: "c", Name: "lookup", Arguments: []byte(`{"id":1}`)})
				if err != nil {
					t.Error(err)
					return
				}
				if out.Success {
					admitted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if n, most := admitted.Load(), 2+int64(elapsed.Seconds()*10)+1; n > most || n <= 2 {
		t.Fatalf("admitted %d in %v, want more than the burst 2 and at most %d", n, elapsed, most)
	}
}

// TestRestartedOrDownDatabase: after an administrator's restart of the database, the buckets are as they
// were (a restart hands out no fresh tokens); a call that meets a connection the restart cut fails closed,
// with the database's error. With the database killed, a call is not run and Dispatch returns an error
// naming the database; FailOpen admits it instead, and OnError is told.
func TestRestartedOrDownDatabase(t *testing.T) {
	c, err := pgcluster.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	dsn, err := c.CreateDB(context.Background(), "down")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, dsn)
	d := dispatcher(t, ratelimit.Limits{}, s)
	send := func() (wink.Outcome, error) {
		ctx, cancel := context.WithTimeout(as("alice"), 10*time.Second)
		defer cancel()
		return d.Dispatch(ctx, wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"x"}`)})
	}
	failedClosed := func(err error) bool {
		return err != nil && strings.Contains(err.Error(), "pgratelimit: the database could not be asked") &&
			strings.Contains(err.Error(), "rate limits fail closed")
	}
	if out, err := send(); err != nil || !out.Success {
		t.Fatalf("first call: %+v %v", out, err)
	}
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	var out wink.Outcome
	for i := 0; ; i++ {
		before := ratetest.Sends.Load()
		out, err = send()
		if err == nil {
			break
		}
		if !failedClosed(err) || ratetest.Sends.Load() != before {
			t.Fatalf("a call on a connection the restart cut: %v (ran: %v), want a refusal naming the database", err, ratetest.Sends.Load() != before)
		}
		if i == 5 {
			t.Fatalf("after the restart: %v", err)
		}
	}
	if !out.Success {
		t.Fatalf("the second token (burst 2) after the restart: %s", out.Output)
	}
	if out, err := send(); err != nil || out.Success {
		t.Fatalf("a third call after the restart: %+v %v; the restart must not refill the bucket", out, err)
	}

	c.Kill()
	before := ratetest.Sends.Load()
	if _, err = send(); !failedClosed(err) {
		t.Fatalf("with the database down: err = %v, want the database's error, failing closed", err)
	}
	if ratetest.Sends.Load() != before {
		t.Fatal("the handler ran while the limiter could not decide")
	}
	var told atomic.Int64
	s.FailOpen, s.OnError = true, func(error) { told.Add(1) }
	if out, err := send(); err != nil || !out.Success || told.Load() == 0 {
		t.Fatalf("FailOpen: %+v %v (told %d)", out, err, told.Load())
	}
}

// TestPruneDropsOnlyRefilledBuckets: Prune deletes the rows of full buckets only.
func TestPruneDropsOnlyRefilledBuckets(t *testing.T) {
	s, pool := open(t, pgtest.DSN(t))
	d := dispatcher(t, ratelimit.Limits{PerPrincipal: wink.Rate{Count: 1, Per: 50 * time.Millisecond}}, s)
	for _, sub := range []string{"a", "b"} {
		if out, err := d.Dispatch(as(sub), wink.Call{ID: "c", Name: "lookup", Arguments: []byte(`{"id":1}`)}); err != nil || !out.Success {
			t.Fatal(out, err)
		}
	}
	time.Sleep(60 * time.Millisecond)
	// send_email's bucket (3/h burst=2) is not full again for 20 minutes.
	if out, err := d.Dispatch(as("a"), wink.Call{ID: "c", Name: "send_email", Arguments: []byte(`{"to":"x"}`)}); err != nil || !out.Success {
		t.Fatal(out, err)
	}
	time.Sleep(200 * time.Millisecond)
	n, err := s.Prune(context.Background())
	var rows int
	_ = pool.QueryRow(context.Background(), "SELECT count(*) FROM wink_ratelimit WHERE bound = 'tool'").Scan(&rows)
	if err != nil || n != 2 || rows != 1 {
		t.Fatalf("Prune = %d, %v; %d tool rows left; want the 2 refilled principal buckets pruned and send_email's kept", n, err, rows)
	}
}
