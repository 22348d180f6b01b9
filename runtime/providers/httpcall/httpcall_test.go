package httpcall

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReadEvents(t *testing.T) {
	in := ": keep-alive\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\n" + // CRLF, two data lines, no space after the colon
		"data: {\"x\":1}\n\n" + // no event name
		"event: empty\ndata\n\n" + // an empty data field
		"event: cut\ndata: never dispatched" // no blank line: dropped
	var got []Event
	err := ReadEvents(strings.NewReader(in), func(e Event) error { got = append(got, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{{"a", []byte("one\ntwo")}, {"", []byte(`{"x":1}`)}, {"empty", []byte("")}}
	if len(got) != len(want) {
		t.Fatalf("got %d events %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || string(got[i].Data) != string(want[i].Data) {
			t.Errorf("event %d = %q %q, want %q %q", i, got[i].Name, got[i].Data, want[i].Name, want[i].Data)
		}
	}
	// A byte order mark at the start is ignored (only there: elsewhere it is part of a field name).
	got = nil
	ReadEvents(strings.NewReader("\uFEFFdata: first\n\n\uFEFFdata: second\n\n"), func(e Event) error { got = append(got, e); return nil })
	if len(got) != 1 || string(got[0].Data) != "first" {
		t.Errorf("byte order mark: %q", got)
	}
	stop := errors.New("stop")
	if err := ReadEvents(strings.NewReader("data: 1\n\ndata: 2\n\n"), func(Event) error { return stop }); err != stop {
		t.Errorf("the callback's error was not returned: %v", err)
	}
	long := "data: " + strings.Repeat("x", MaxLine+1) + "\n\n"
	if err := ReadEvents(strings.NewReader(long), func(Event) error { return nil }); err == nil {
		t.Error("a line over MaxLine was accepted")
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second, true},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond, true},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second, true},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{}, 0, false},
	} {
		got, ok := retryAfter(c.h, now)
		if got != c.want || ok != c.ok {
			t.Errorf("retryAfter(%v) = %v, %v; want %v, %v", c.h, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoffGrowsWithJitterAndCap(t *testing.T) {
	r := Retry{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}.norm()
	for attempt, max := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		max *= time.Millisecond
		for range 50 {
			d := backoff(r, attempt)
			if d < max/2 || d > max {
				t.Fatalf("attempt %d: %v outside [%v, %v]", attempt, d, max/2, max)
			}
		}
	}
}

// TestEventBounds: an event of 1.5 MiB (one line) and one of three data lines arrive whole; a line or an
// event past its bound is an *EventTooLargeError naming the bound.
func TestEventBounds(t *testing.T) {
	big := strings.Repeat("x", 3<<19)
	var got []int
	err := ReadEvents(strings.NewReader("data: "+big+"\n\ndata: a\ndata: "+big+"\ndata: b\n\n"), func(ev Event) error {
		got = append(got, len(ev.Data))
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != len(big) || got[1] != len(big)+4 {
		t.Fatalf("events %v, %v", got, err)
	}
	half := strings.Repeat("y", MaxEvent/2+1)
	for name, stream := range map[string]string{
		"line":  "data: " + strings.Repeat("z", MaxLine+1) + "\n\n",
		"event": "data: " + half + "\ndata: " + half + "\n\n",
	} {
		err := ReadEvents(strings.NewReader(stream), func(Event) error { return nil })
		var e *EventTooLargeError
		if !errors.As(err, &e) || e.What != name || !strings.Contains(err.Error(), strconv.Itoa(8<<20)) {
			t.Errorf("%s past the bound: %v", name, err)
		}
	}
}

// TestPostStreamSaysAttempts: after the retries are spent the error says how many attempts over how long;
// a transport error too (*RetriesError).
func TestPostStreamSaysAttempts(t *testing.T) {
	var n int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		http.Error(w, `{"error":{"message":"overloaded"}}`, 529)
	}))
	defer srv.Close()
	err := PostStream(context.Background(), Request{Provider: "p", URL: srv.URL, Body: []byte(`{}`),
		Retry: Retry{MaxRetries: 3, BaseDelay: time.Millisecond}}, func(Event) error { return nil }, func() bool { return false })
	var se *StatusError
	if !errors.As(err, &se) || se.Attempts.N != 4 || n != 4 || !strings.Contains(err.Error(), "overloaded (after 4 attempts over ") {
		t.Fatalf("status after retries: %v (%d requests)", err, n)
	}
	srv.Close()
	_, at, err := Do(context.Background(), nil, Retry{MaxRetries: 2, BaseDelay: time.Millisecond}, func() (*http.Request, error) {
		return http.NewRequest(http.MethodGet, srv.URL, nil)
	})
	var re *RetriesError
	if !errors.As(err, &re) || at.N != 3 || !strings.Contains(err.Error(), "(after 3 attempts over ") {
		t.Fatalf("transport error after retries: %v", err)
	}
}
