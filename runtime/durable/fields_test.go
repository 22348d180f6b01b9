package durable_test

import (
	"reflect"
	"testing"

	"github.com/winkgen/wink/runtime/durable"
	"github.com/winkgen/wink/runtime/loop"
	"github.com/winkgen/wink/runtime/wink"
)

// notCheckpointed are the fields a checkpoint does not carry, and why.
var notCheckpointed = map[string]string{
	"Outcome.Held":   "a held call has no outcome to checkpoint (the run waits for the decision)",
	"Outcome.NotRun": "set only in loop.Turn.Outcomes for a call without a result, never checkpointed",
	"Call.Hold":      "a durable call's hold id is its step's (durable.HoldID), derived on every dispatch; a model's response never carries one; the held calls' payload (EncodeHeld) writes it",
}

// fill sets every field of v (recursively) to a value other than its zero, so that a field the codec
// drops shows as a difference.
func fill(t *testing.T, v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x" + path)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Uint8:
		v.SetUint(3)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte("b" + path))
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		fill(t, s.Index(0), path+"[0]")
		fill(t, s.Index(1), path+"[1]")
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[wink.Blocks]() {
			var c wink.Content
			fill(t, reflect.ValueOf(&c).Elem(), path+".Content")
			v.Set(reflect.ValueOf(wink.BlocksOf(c, wink.EmbeddedBlob("u", "application/pdf", []byte{}))))
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				t.Fatalf("%s.%s: unexported field: teach fill about %s", path, f.Name, v.Type())
			}
			if _, skip := notCheckpointed[v.Type().Name()+"."+f.Name]; skip {
				continue
			}
			fill(t, v.Field(i), path+"."+f.Name)
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), path)
		v.Set(p)
	default:
		t.Fatalf("%s: teach fill about %s", path, v.Type())
	}
}

// TestCheckpointCodecCarriesEveryField fills every field of what the checkpoints hold (a model
// response, a tool outcome, the run's input messages, held calls; a session commit carries its outcome
// with the same code) and checks that
// decoding gives them all back: a field added to wink.Outcome, wink.Content, wink.Call, loop.Message or
// loop.Response that the codec does not carry fails here, not after a takeover.
func TestCheckpointCodecCarriesEveryField(t *testing.T) {
	var resp loop.Response
	fill(t, reflect.ValueOf(&resp).Elem(), "Response")
	gotResp, err := durable.DecodeResponse(durable.EncodeResponse(resp))
	if err != nil || !reflect.DeepEqual(gotResp, resp) {
		t.Errorf("response:\n got %+v\nwant %+v (%v)", gotResp, resp, err)
	}
	var o wink.Outcome
	fill(t, reflect.ValueOf(&o).Elem(), "Outcome")
	gotO, err := durable.DecodeOutcome(durable.EncodeOutcome(o))
	if err != nil || !reflect.DeepEqual(gotO, o) {
		t.Errorf("outcome:\n got %+v %+v\nwant %+v %+v (%v)", gotO, gotO.Content.All(), o, o.Content.All(), err)
	}
	var ms []loop.Message
	fill(t, reflect.ValueOf(&ms).Elem(), "Messages")
	gotMs, err := durable.DecodeMessages(durable.EncodeMessages(ms))
	if err != nil || !reflect.DeepEqual(gotMs, ms) {
		t.Errorf("messages:\n got %+v\nwant %+v (%v)", gotMs, ms, err)
	}
	var cs []wink.Call
	fill(t, reflect.ValueOf(&cs).Elem(), "Calls")
	gotCs, err := durable.DecodeCalls(durable.EncodeCalls(cs))
	if err != nil || !reflect.DeepEqual(gotCs, cs) {
		t.Errorf("calls:\n got %+v\nwant %+v (%v)", gotCs, cs, err)
	}
}

// TestHeldPayloadCarriesEveryField: what Status.Held reports (the binding a decision needs, what the
// person is shown, an elicitation's question) survives EncodeHeld and DecodeHeld.
func TestHeldPayloadCarriesEveryField(t *testing.T) {
	var hs []wink.HeldError
	fill(t, reflect.ValueOf(&hs).Elem(), "Held")
	var ptrs []*wink.HeldError
	for i := range hs {
		ptrs = append(ptrs, &hs[i])
	}
	hs[1].Elicitation = nil
	got, err := durable.DecodeHeld(durable.EncodeHeld(ptrs))
	if err != nil || len(got) != 2 {
		t.Fatal(got, err)
	}
	for i := range got {
		want := *ptrs[i]
		want.Call.Hold = ptrs[i].Call.Hold
		if !reflect.DeepEqual(*got[i], want) {
			t.Errorf("held %d:\n got %+v\nwant %+v", i, *got[i], want)
		}
	}
}
