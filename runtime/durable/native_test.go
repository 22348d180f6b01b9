package durable_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// What a provider needs to continue a program (its container, its own items, each call's caller) and
// what a tool search found survive a checkpoint byte for byte.
func TestCheckpointsKeepContainersProgramsCallersAndFoundTools(t *testing.T) {
	caller := []byte(`{"type":"program","caller_id":"call_prog_1"}`)
	native := []byte(`[{"type":"program","id":"prog_1","call_id":"call_prog_1","code":"x","fingerprint":"fp_9a"}]`)
	resp := loop.Response{Text: "t", ToolCalls: []wink.Call{{ID: "c1", Name: "lookup", Arguments: []byte(`{}`), Caller: caller}},
		Container: "container_011", Native: native, Stop: "completed"}
	got, err := durable.DecodeResponse(durable.EncodeResponse(resp))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(resp, got); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
	msgs := []loop.Message{
		{Role: loop.RoleAssistant, ToolCalls: resp.ToolCalls, Container: "container_011", Native: native},
		{Role: loop.RoleTool, Result: wink.Outcome{CallID: "s1", Name: "tool_search", Success: true, Output: "Found"}, Found: []string{"refund_order", "send_email"}},
	}
	gotMsgs, err := durable.DecodeMessages(durable.EncodeMessages(msgs))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(msgs, gotMsgs, cmp.Comparer(func(a, b wink.Blocks) bool { return a.Len() == b.Len() })); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
