package prompt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

func TestContractHashIsSHA256OfLengthPrefixedContract(t *testing.T) {
	tool := secTool("ls", "Lists files.", true)
	// Computed independently:
	//	S='{"type":"object","properties":{},"additionalProperties":false}'
	//	printf '2:ls\n12:Lists files.\n%d:%s\n15:%s\n' ${#S} "$S" '{"type":"null"}' | sha256sum
	const want = "fea445d4654c70ab858a6524c83a6a769eb1d2694896f463daf60da73f8b7cae"
	if got := prompt.ContractHash(tool); got != want {
		t.Errorf("ContractHash = %s, want %s", got, want)
	}
}

func TestContractHashChangesWithEachContractField(t *testing.T) {
	base := wink.Spec{Name: "ls", Description: "lists files.", ParamsSchema: []byte(`{"type":"object"}`),
		ResultSchema: []byte(`{"type":"null"}`), AcceptsOverrides: true}
	hash := func(s wink.Spec) string {
		return prompt.ContractHash(wink.NewTool(s, &wink.Funcs[wink.NoParams, wink.NoValue]{
			Decode: wink.DecodeNoParams, EncodeResult: wink.EncodeNoValue,
			Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
				return wink.Done[wink.NoValue](""), nil
			},
		}))
	}
	h0 := hash(base)
	tests := []struct {
		name    string
		edit    func(*wink.Spec)
		changes bool
	}{
		{"name", func(s *wink.Spec) { s.Name = "lst" }, true},
		{"description", func(s *wink.Spec) { s.Description = "Lists the files." }, true},
		{"params schema", func(s *wink.Spec) { s.ParamsSchema = []byte(`{"type":"object","required":["path"]}`) }, true},
		{"result schema", func(s *wink.Spec) { s.ResultSchema = []byte(`{"type":"string"}`) }, true},
		{"bytes moved between fields", func(s *wink.Spec) { s.Name, s.Description = "lsl", "ists files." }, true},
		{"position is not contract", func(s *wink.Spec) { s.Position = "elsewhere.go:9:9" }, false},
		{"examples are not contract", func(s *wink.Spec) { s.Examples = []wink.Example{{Input: []byte(`{}`)}} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			tt.edit(&s)
			if changed := hash(s) != h0; changed != tt.changes {
				t.Errorf("hash changed = %v, want %v", changed, tt.changes)
			}
		})
	}
}

func TestOverridesRefusedExactText(t *testing.T) {
	fixed := secTool("ls", "Lists files.", false)
	open := secTool("read_file", "Reads a file.", true)
	sec := mustSection(t, prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{fixed, open}})
	p := prompt.Must("p", sec)
	good := prompt.ContractHash(open)
	stale := strings.Repeat("0", 64)
	tests := []struct {
		name string
		o    prompt.Overrides
		want string
	}{
		{"tool refusing overrides", prompt.Overrides{"ls": {Description: "X.", ContractHash: prompt.ContractHash(fixed)}},
			`override for tool "ls" refused: the tool does not accept overrides`},
		{"stale contract", prompt.Overrides{"read_file": {Description: "X.", ContractHash: stale}},
			`override for tool "read_file" refused: written for contract ` + stale + `, but the current contract is ` + good},
		{"missing hash", prompt.Overrides{"read_file": {Description: "X."}},
			`override for tool "read_file" refused: written for contract "", but the current contract is ` + good},
		{"unknown tool", prompt.Overrides{"rm": {Description: "X.", ContractHash: good}},
			`override for tool "rm" refused: prompt "p" has no such tool`},
		{"empty description", prompt.Overrides{"read_file": {Description: "  ", ContractHash: good}},
			`override for tool "read_file" refused: the description must be 1 to 200 ASCII characters`},
		{"long description", prompt.Overrides{"read_file": {Description: strings.Repeat("x", 201), ContractHash: good}},
			`override for tool "read_file" refused: the description must be 1 to 200 ASCII characters`},
		{"non-ASCII description", prompt.Overrides{"read_file": {Description: "Lit un fichier déjà ouvert.", ContractHash: good}},
			`override for tool "read_file" refused: the description must be 1 to 200 ASCII characters`},
		{"all refusals, by tool name", prompt.Overrides{
			"rm":        {Description: "X.", ContractHash: good},
			"ls":        {Description: "X."},
			"read_file": {Description: "X.", ContractHash: stale},
		}, strings.Join([]string{
			`override for tool "ls" refused: the tool does not accept overrides`,
			`override for tool "read_file" refused: written for contract ` + stale + `, but the current contract is ` + good,
			`override for tool "rm" refused: prompt "p" has no such tool`,
		}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := p.WithOverrides(tt.o)
			if err == nil || q != nil {
				t.Fatalf("WithOverrides = %v, %v; want error %q", q, err, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("WithOverrides error:\n got %s\nwant %s", err, tt.want)
			}
			r, err := p.RenderWith(prompt.RenderOptions{Overrides: tt.o})
			if err == nil || r != nil {
				t.Fatalf("RenderWith = %v, %v; want error %q", r, err, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("RenderWith error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestOverrideReplacesDescriptionAndKeepsHandler(t *testing.T) {
	open := secTool("read_file", "Reads a file.", true,
		wink.Example{Description: "Read", Input: []byte(`{}`)})
	sec := mustSection(t, prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{open}})
	p, err := prompt.Must("p", sec).WithOverrides(prompt.Overrides{
		"read_file": {Description: "  Reads one file; read before you edit.  ", ContractHash: prompt.ContractHash(open)}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Tools[0]
	if got.Description() != "Reads one file; read before you edit." {
		t.Errorf("description = %q", got.Description())
	}
	if open.Description() != "Reads a file." {
		t.Errorf("original tool changed: %q", open.Description())
	}
	if got.Name() != "read_file" || got.Position() != open.Position() || len(got.Spec().Examples) != 1 ||
		!got.Spec().AcceptsOverrides || string(got.Spec().ParamsSchema) != string(open.Spec().ParamsSchema) {
		t.Errorf("overridden tool lost its spec: %+v", got.Spec())
	}
	if want := "- `read_file`: Reads one file; read before you edit.\n  - Read: `read_file({})`"; !strings.Contains(r.Text, want) {
		t.Errorf("text lacks the overridden description %q:\n%s", want, r.Text)
	}
	if tool, _ := r.Registry().Lookup("read_file"); tool != got {
		t.Error("registry does not hold the overridden tool")
	}
	out, err := r.Dispatcher(wink.Dispatcher{}).Dispatch(context.Background(),
		wink.Call{ID: "c", Name: "read_file", Arguments: []byte(`{}`)})
	if err != nil || !out.Success || out.Output != "ran read_file" {
		t.Errorf("dispatch through the overridden tool = %+v, %v", out, err)
	}
	// The prompt's own override is not refused by its current contract
	// (overrides are checked against the section's tool, not the copy).
	if _, err := p.WithOverrides(prompt.Overrides{"read_file": {Description: "Again.", ContractHash: prompt.ContractHash(open)}}); err != nil {
		t.Errorf("second override: %v", err)
	}
}

func TestRenderOverridesWinOverPromptOverrides(t *testing.T) {
	a := secTool("a", "A.", true)
	b := secTool("b", "B.", true)
	sec := mustSection(t, prompt.SectionSpec{Key: "s", Title: "S", Tools: []*wink.Tool{a, b}})
	p, err := prompt.Must("p", sec).WithOverrides(prompt.Overrides{
		"a": {Description: "Prompt A.", ContractHash: prompt.ContractHash(a)},
		"b": {Description: "Prompt B.", ContractHash: prompt.ContractHash(b)},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.RenderWith(prompt.RenderOptions{Overrides: prompt.Overrides{"b": {Description: "Render B.", ContractHash: prompt.ContractHash(b)}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tools[0].Description() != "Prompt A." || r.Tools[1].Description() != "Render B." {
		t.Errorf("descriptions = %q, %q", r.Tools[0].Description(), r.Tools[1].Description())
	}
	r2, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Tools[1].Description() != "Prompt B." {
		t.Errorf("render override leaked into the next render: %q", r2.Tools[1].Description())
	}
}
