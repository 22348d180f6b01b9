package mcpserver

import (
	"strconv"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
)

// uniqueKeys finds a member given twice in any object of a value, at any depth, in objects of any size
// (past linearKeys members a map takes over), keys compared unescaped; members of different objects,
// and array elements, are not compared with each other.
func TestUniqueKeysFindsEveryRepeatedMember(t *testing.T) {
	many := func(n int, extra string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
		}
		return b.String() + extra + "}"
	}
	for _, c := range []struct{ value, want string }{
		{`{"a":1,"b":2}`, ""},
		{`{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}`, ""},
		{`{"a":1,"a":2}`, "a"},
		{`{"a":1,"\u0061":2}`, "a"},
		{`{"x":[1,{"b":1,"c":{"d":1,"d":2}}]}`, "d"},
		{`[{"a":1},{"a":1,"b":1,"a":3}]`, "a"},
		{`{"a":{"b":1},"c":{"b":1},"a":2}`, "a"},
		{many(15, `,"k3":1`), "k3"},
		{many(16, `,"k3":1`), "k3"},
		{many(17, `,"k3":1`), "k3"},
		{many(40, `,"k39":1`), "k39"},
		{many(40, `,"k40":1`), ""},
		{`{"big":` + many(40, "") + `,"other":{"k1":1,"k2":2},"big":1}`, "big"},
	} {
		var u uniqueKeys
		var d strictjson.Decoder
		d.Reset([]byte(c.value), strictjson.Limits{MaxBytes: len(c.value) + 1, MaxDepth: lineMaxDepth})
		if got := u.value(&d); got != c.want {
			t.Errorf("%.60s: got %q, want %q", c.value, got, c.want)
		}
		if errs := d.Finish(); errs != nil {
			t.Errorf("%.60s: %v", c.value, errs)
		}
		if len(u.frames) != 0 || len(u.ends) != 0 || len(u.arena) != 0 {
			t.Errorf("%.60s: left %d frames, %d keys", c.value, len(u.frames), len(u.ends))
		}
	}
}

// BenchmarkCheckLine is the cost of checking one tools/call line (the whole message, every member of
// every object) before the SDK decodes it.
func BenchmarkCheckLine(b *testing.B) {
	small := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"search_docs","arguments":{"query":"snapshots","filters":{"path_prefix":"/docs","max_size":4096}},"_meta":{"progressToken":3}}}`)
	var args strings.Builder
	for i := range 20000 {
		if i > 0 {
			args.WriteString(",")
		}
		args.WriteString(`{"id":` + strconv.Itoa(i) + `,"title":"item number ` + strconv.Itoa(i) + `","tags":["a","b"]}`)
	}
	large := []byte(`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"import","arguments":{"items":[` + args.String() + `]}}}`)
	for _, c := range []struct {
		name string
		line []byte
	}{{"small", small}, {"large", large}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.line)))
			b.ReportAllocs()
			for b.Loop() {
				if checkLine(c.line) != nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
