package openairesponses_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/responses"
	"github.com/winkgen/wink/runtime/internal/shoptools"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/providers/httpcall"
	pt "github.com/winkgen/wink/runtime/providers/internal/providertest"
	"github.com/winkgen/wink/runtime/providers/openairesponses"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/toolsearch"
	"github.com/winkgen/wink/runtime/wink"
)

func itemDone(i int, item string) string {
	return `{"type":"response.output_item.done","sequence_number":7,"output_index":` + string(rune('0'+i)) + `,"item":` + item + `}`
}

const (
	searchItem   = `{"type":"tool_search_call","id":"ts_1","call_id":"call_s","execution":"client","arguments":{"query":"refund an order's payment"},"status":"completed"}`
	programItem  = `{"type":"program","id":"prog_1","call_id":"call_prog","code":"const c = await tools.lookup_customer({customer_id: \"c-1\"}); return c.tool;","fingerprint":"fp_7f3a9c"}`
	programdCall = `{"type":"function_call","id":"fc_1","call_id":"call_l","name":"lookup_customer","arguments":"{\"customer_id\":\"c-1\"}","status":"completed","caller":{"type":"program","caller_id":"call_prog"}}`
)

func newParams(t *testing.T, body []byte) responses.ResponseNewParams {
	t.Helper()
	var p responses.ResponseNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("the SDK does not read the request: %v\n%s", err, body)
	}
	return p
}

func TestProgramsAndSearchRoundTripThroughTheResponsesAPI(t *testing.T) {
	s := pt.NewServer(t,
		pt.Stream(sse(created, itemDone(0, searchItem), completed(30, 5))),
		pt.Stream(sse(created, itemDone(0, programItem), itemDone(1, programdCall), completed(40, 9))),
		pt.Stream(sse(created, textDelta("Refund found."), completed(50, 3))))
	p, err := openairesponses.New(openairesponses.Config{BaseURL: s.URL, Model: "gpt-5", APIKey: "k",
		Programs: true, OutputSchema: true, Retry: httpcall.Retry{BaseDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	d := &wink.Dispatcher{Registry: wink.MustRegistry(shoptools.WinkTools()), Session: session.New()}
	res, err := loop.Run(context.Background(), loop.Config{Provider: p, Dispatcher: d,
		Search: []*toolsearch.Catalog{shoptools.WinkCatalog}}, []loop.Message{loop.UserMessage("refund c-1's order")})
	if err != nil {
		t.Fatal(err)
	}
	bodies := s.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d requests", len(bodies))
	}

	// Request 1: functions (deferred ones marked), callers and output schemas, the client search and
	// programmatic tool calling.
	r1 := newParams(t, bodies[0])
	fns := map[string]*responses.FunctionToolParam{}
	var search, programs bool
	for _, u := range r1.Tools {
		switch {
		case u.OfFunction != nil:
			fns[u.OfFunction.Name] = u.OfFunction
		case u.OfToolSearch != nil:
			search = u.OfToolSearch.Execution == "client" && u.OfToolSearch.Parameters != nil
		case u.OfProgrammaticToolCalling != nil:
			programs = true
		}
	}
	if !search || !programs || len(fns) != 20 {
		t.Fatalf("tools: client search %v, programs %v, %d functions", search, programs, len(fns))
	}
	lc := fns["lookup_customer"]
	if lc.DeferLoading.Value || !slices.Equal(lc.AllowedCallers, []string{"direct", "programmatic"}) {
		t.Errorf("lookup_customer: defer %v, callers %v", lc.DeferLoading.Value, lc.AllowedCallers)
	}
	got, _ := json.Marshal(lc.OutputSchema)
	var want map[string]any
	_ = json.Unmarshal(shoptools.WinkLookupCustomer.Spec().ResultSchema, &want)
	if w, _ := json.Marshal(want); string(got) != string(w) {
		t.Errorf("output_schema %s, want the generated result schema %s", got, w)
	}
	if ro := fns["refund_order"]; !ro.DeferLoading.Value || !slices.Equal(ro.AllowedCallers, []string{"direct"}) {
		t.Errorf("refund_order: defer %v, callers %v", ro.DeferLoading.Value, ro.AllowedCallers)
	}

	// Request 2: the search call replayed and answered with the found tools' definitions.
	in2 := inputItems(t, bodies[1])
	sc, so := in2[len(in2)-2].OfToolSearchCall, in2[len(in2)-1].OfToolSearchOutput
	if sc == nil || sc.CallID.Value != "call_s" || so == nil || so.CallID.Value != "call_s" || len(so.Tools) == 0 ||
		so.Tools[0].OfFunction == nil || so.Tools[0].OfFunction.Name != "refund_order" {
		t.Fatalf("search round trip:\n%s", bodies[1])
	}

	// Request 3: the program item with its fingerprint, byte for byte; the call and its output name the
	// program.
	if !strings.Contains(string(bodies[2]), programItem) || !strings.Contains(string(bodies[2]), programdCall) {
		t.Errorf("program items not sent back exactly:\n%s", bodies[2])
	}
	in3 := inputItems(t, bodies[2])
	var prog *responses.ResponseInputItemProgramParam
	var out *responses.ResponseInputItemFunctionCallOutputParam
	for _, it := range in3 {
		if it.OfProgram != nil {
			prog = it.OfProgram
		}
		if it.OfFunctionCallOutput != nil && it.OfFunctionCallOutput.CallID.Value == "call_l" {
			out = it.OfFunctionCallOutput
		}
	}
	if prog == nil || prog.Fingerprint != "fp_7f3a9c" {
		t.Errorf("program item: %+v", prog)
	}
	if out == nil || out.Caller.OfProgram == nil || out.Caller.OfProgram.CallerID != "call_prog" {
		t.Errorf("function_call_output does not name the program: %+v", out)
	}
	if res.Text != "Refund found." {
		t.Errorf("text %q", res.Text)
	}
}

// inputItems reads a request's input items one by one with the SDK's union type (the SDK reads a list
// only when every item names its type, and easy messages, {"role":...,"content":...}, do not).
func inputItems(t *testing.T, body []byte) []responses.ResponseInputItemUnionParam {
	t.Helper()
	var m struct{ Input []json.RawMessage }
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	var out []responses.ResponseInputItemUnionParam
	for _, raw := range m.Input {
		var u responses.ResponseInputItemUnionParam
		if strings.HasPrefix(string(raw), `{"role":`) {
			var e responses.EasyInputMessageParam
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatal(err)
			}
			u.OfMessage = &e
		} else if err := json.Unmarshal(raw, &u); err != nil {
			t.Fatalf("the SDK does not read %s: %v", raw, err)
		}
		out = append(out, u)
	}
	return out
}
