package toolsearch_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/toolsearch"
)

func catalog(tools ...[3]string) *toolsearch.Catalog {
	var es []toolsearch.Entry
	var docs []string
	for _, t := range tools {
		params := strings.Split(t[2], ", ")
		es = append(es, toolsearch.Entry{Name: t[0], Line: toolsearch.FirstLine(t[1]), Params: t[2]})
		docs = append(docs, toolsearch.Doc(t[0], t[1], params))
	}
	return toolsearch.Build(es, docs)
}

var shop = catalog(
	[3]string{"send_email", "Sends an email message to a customer. It is queued.", "to, subject, body"},
	[3]string{"refund_order", "Refunds an order's payment, in full or in part.", "order_id, amount_cents"},
	[3]string{"list_invoices", "Lists the invoices of the current account.", ""},
	[3]string{"get_weather", "Returns the weather forecast for a city.", "city, days"},
	[3]string{"create_ticket", "Opens a support ticket for a customer's problem.", "customer_id, title, body"},
)

func names(hs []toolsearch.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Name)
	}
	return out
}

func TestSearchRanksByBM25(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"email the customer", []string{"send_email", "create_ticket"}},
		{"refund a payment", []string{"refund_order"}},
		{"what invoices do I have", []string{"list_invoices"}},
		{"weather in Paris for 3 days", []string{"get_weather"}},
		{"SendEmail", []string{"send_email"}},
		{"open a support ticket", []string{"create_ticket"}},
		{"teleport", nil},
		{"the of and", nil},
	} {
		got := names(toolsearch.Search([]*toolsearch.Catalog{shop}, tt.query, 5, nil))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestSearchLimitKeepAndSeveralCatalogs(t *testing.T) {
	other := catalog([3]string{"send_sms", "Sends a text message to a phone.", "phone, text"})
	cats := []*toolsearch.Catalog{shop, other}
	got := names(toolsearch.Search(cats, "send a message", 5, nil))
	if len(got) < 2 || !slices.Contains(got[:2], "send_email") || !slices.Contains(got[:2], "send_sms") {
		t.Errorf("across catalogs: %v, want send_email and send_sms first", got)
	}
	if got := toolsearch.Search(cats, "send a message", 1, nil); len(got) != 1 {
		t.Errorf("limit 1: %d hits", len(got))
	}
	got = names(toolsearch.Search(cats, "send a message", 5, func(n string) bool { return n != "send_email" }))
	if slices.Contains(got, "send_email") {
		t.Errorf("keep did not filter: %v", got)
	}
}

func TestTerms(t *testing.T) {
	got := toolsearch.Terms("SendEmail send_email: Refunds an order's files, 3 days")
	want := []string{"send", "email", "send", "email", "refund", "order", "file", "day"}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestParseQueryTellsHowToFix(t *testing.T) {
	q, err := toolsearch.ParseQuery([]byte(`{"query":"send mail","limit":null}`))
	if err != nil || q.Text != "send mail" || q.Limit != toolsearch.DefaultLimit {
		t.Fatalf("got %+v, %v", q, err)
	}
	q, err = toolsearch.ParseQuery([]byte(`{"query":"x","limit":3}`))
	if err != nil || q.Limit != 3 {
		t.Fatalf("got %+v, %v", q, err)
	}
	_, err = toolsearch.ParseQuery([]byte(`{"qeury":"x","limit":50}`))
	want := "Invalid arguments for tool \"tool_search\":\n- unknown field \"qeury\"; did you mean \"query\"? (allowed: query, limit)\n- limit: must be <= 20; got 50\n- query: missing required field\nFix the arguments and call tool_search again."
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

func TestTextListsTheHits(t *testing.T) {
	hs := toolsearch.Search([]*toolsearch.Catalog{shop}, "refund", 5, nil)
	got := toolsearch.Text("refund", hs)
	want := "Found 1 tool; it is loaded and can be called from now on:\n- refund_order(order_id, amount_cents): Refunds an order's payment, in full or in part."
	if got != want {
		t.Errorf("Text = %q", got)
	}
	if got := toolsearch.Text("x", nil); !strings.Contains(got, "Search again") {
		t.Errorf("no hits: %q", got)
	}
}
