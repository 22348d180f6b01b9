package providertest

import (
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
)

// Ask sends a request to a provider pointed at s.
type Ask func(s *Server) (loop.Response, error)

// StreamEdgeCases checks how a provider reads edge(text): an event stream of text, then a get_weather
// call whose argument deltas split {"city":"Zürich 🌧"} between the characters. Written plainly it gives
// that text and call; spelled Awkward and trickled one to seven bytes at a time (events and UTF-8
// sequences split across reads), after a reply of the retryable status code with body whose Retry-After
// is an HTTP date, it gives the same response; answers of 0.9 and 1 MiB in one event arrive whole. It
// returns the plain stream's response, for the provider's own checks.
func StreamEdgeCases(t *testing.T, edge func(text string) string, code int, body string, ask Ask) loop.Response {
	t.Helper()
	want, err := ask(NewServer(t, Stream(edge("Héllo"))))
	if err != nil || want.Text != "Héllo" || len(want.ToolCalls) != 1 || string(want.ToolCalls[0].Arguments) != `{"city":"Zürich 🌧"}` {
		t.Fatalf("plain stream: %+v %v", want, err)
	}
	for _, n := range []int{1, 2, 3, 5, 7} {
		date := http.Header{"Retry-After": {time.Now().Add(-time.Second).UTC().Format(http.TimeFormat)}}
		s := NewServer(t, Status(code, date, body), Trickle(Awkward(edge("Héllo")), n))
		got, err := ask(s)
		if err != nil || !reflect.DeepEqual(got, want) || len(s.Bodies()) != 2 {
			t.Errorf("awkward stream in pieces of %d bytes: %+v %v after %d requests\nwant %+v", n, got, err, len(s.Bodies()), want)
		}
	}
	for _, size := range []int{9 << 20 / 10, 1 << 20} {
		big := strings.Repeat("é", size/2)
		got, err := ask(NewServer(t, Trickle(edge(big), 64<<10)))
		if err != nil || got.Text != big || len(got.ToolCalls) != 1 {
			t.Errorf("%d-byte event: %d bytes of text, %v", size, len(got.Text), err)
		}
	}
	return want
}

// LargeEvents checks that an answer of 1.5 MiB in one delta arrives whole, and that an event past
// httpcall.MaxEvent is an *httpcall.EventTooLargeError naming the bound, never an empty or shortened
// answer. stream(deltas...) is an event stream whose answer is deltas, one text delta event each.
func LargeEvents(t *testing.T, stream func(deltas ...string) string, ask Ask) {
	t.Helper()
	big := strings.Repeat("a", 3<<19)
	resp, err := ask(NewServer(t, Stream(stream(big))))
	if err != nil || resp.Text != big {
		t.Fatalf("1.5 MiB delta: %d bytes of text, %v", len(resp.Text), err)
	}
	huge := strings.Repeat("b", httpcall.MaxEvent)
	_, err = ask(NewServer(t, Stream(stream("start", huge))))
	var tooLarge *httpcall.EventTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), strconv.Itoa(httpcall.MaxEvent)) {
		t.Fatalf("event past the bound: %v", err)
	}
}
