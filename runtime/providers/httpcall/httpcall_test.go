package httpcall

import (
	"errors"
	"net/http"
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
