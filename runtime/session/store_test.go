package session_test

import (
	"testing"

	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/session/internal/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) session.Store {
		st, err := session.NewMemoryStore(storetest.Slices()...)
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

func TestStoreRefusesSlicesWithoutCodecOrWithOneNameTwice(t *testing.T) {
	twin := session.NewSlice[string]("test.plan", session.Rollback, session.WithCodec(storetest.StringCodec))
	_, err := session.NewMemoryStore(storetest.Plan, storetest.Scratch, twin)
	want := `session slice "test.scratch" has no codec: declare it with session.WithCodec(Wink<Type>Codec), marking its item type //wink:state so winkgen emits the codec` +
		"\n" + `session slice name "test.plan" is given twice; stored slices need distinct names`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}
