package prompt_test

import (
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/wink"
)

// secTool returns a parameterless tool that answers "ran <name>".
func secTool(name, desc string, acceptsOverrides bool, examples ...wink.Example) *wink.Tool {
	return wink.NewTool(wink.Spec{
		Name: name, Description: desc, Position: name + ".go:1:1",
		ParamsSchema:     []byte(`{"type":"object","properties":{},"additionalProperties":false}`),
		ResultSchema:     []byte(`{"type":"null"}`),
		AcceptsOverrides: acceptsOverrides,
		Examples:         examples,
	}, &wink.Funcs[wink.NoParams, wink.NoValue]{
		Decode:       wink.DecodeNoParams,
		EncodeParams: wink.EncodeNoParams,
		EncodeResult: wink.EncodeNoValue,
		Handler: func(*wink.ToolContext, wink.NoParams) (wink.ToolResult[wink.NoValue], error) {
			return wink.Done[wink.NoValue]("ran " + name), nil
		},
	})
}

// mustSection is prompt.NewSection failing the test on error.
func mustSection(t testing.TB, s prompt.SectionSpec) *prompt.Section {
	t.Helper()
	sec, err := prompt.NewSection(s)
	if err != nil {
		t.Fatalf("NewSection(%q): %v", s.Key, err)
	}
	return sec
}

func TestNewSectionConstructionErrorsExactText(t *testing.T) {
	child := mustSection(t, prompt.SectionSpec{Key: "docs", Title: "Docs"})
	ls := secTool("ls", "Lists files.", false)
	tests := []struct {
		name string
		spec prompt.SectionSpec
		want string
	}{
		{"key with upper case", prompt.SectionSpec{Key: "Files", Title: "Files"},
			`section key "Files" must match ^[a-z0-9][a-z0-9._-]*$`},
		{"empty key", prompt.SectionSpec{Key: "", Title: "Files"},
			`section key "" must match ^[a-z0-9][a-z0-9._-]*$`},
		{"key starting with a dot", prompt.SectionSpec{Key: ".files", Title: "Files"},
			`section key ".files" must match ^[a-z0-9][a-z0-9._-]*$`},
		{"empty title", prompt.SectionSpec{Key: "files", Title: "  "},
			`section "files": the title must be one non-empty line`},
		{"title on two lines", prompt.SectionSpec{Key: "files", Title: "Files\nand more"},
			`section "files": the title must be one non-empty line`},
		{"placeholder without param", prompt.SectionSpec{Key: "files", Title: "Files", Template: "Work in\nthe ${root} folder."},
			`section "files": placeholder "${root}" on line 2 has no matching param`},
		{"placeholder reported once", prompt.SectionSpec{Key: "files", Title: "Files", Template: "${a} ${a}"},
			`section "files": placeholder "${a}" on line 1 has no matching param`},
		{"unterminated placeholder", prompt.SectionSpec{Key: "files", Title: "Files", Template: "x\n\nUse ${root to\nstart",
			Params: []prompt.Param{{Name: "root"}}},
			`section "files": unterminated placeholder "${root to" on line 3: no closing "}"`},
		{"unterminated at end", prompt.SectionSpec{Key: "files", Title: "Files", Template: "Use ${"},
			`section "files": unterminated placeholder "${" on line 1: no closing "}"`},
		{"placeholder with bad name", prompt.SectionSpec{Key: "files", Title: "Files", Template: "${1x}"},
			`section "files": placeholder "${1x}" on line 1: the name must match ^[A-Za-z_][A-Za-z0-9_]*$`},
		{"empty placeholder", prompt.SectionSpec{Key: "files", Title: "Files", Template: "${}"},
			`section "files": placeholder "${}" on line 1: the name must match ^[A-Za-z_][A-Za-z0-9_]*$`},
		{"bad param name", prompt.SectionSpec{Key: "files", Title: "Files", Params: []prompt.Param{{Name: "1x"}}},
			`section "files": param name "1x" must match ^[A-Za-z_][A-Za-z0-9_]*$`},
		{"duplicate param", prompt.SectionSpec{Key: "files", Title: "Files", Params: []prompt.Param{{Name: "root"}, {Name: "root"}}},
			`section "files": duplicate param "root"`},
		{"required param with default", prompt.SectionSpec{Key: "files", Title: "Files",
			Params: []prompt.Param{{Name: "root", Required: true, Default: "/"}}},
			`section "files": required param "root" has a default`},
		{"nil tool", prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{ls, nil}},
			`section "files": tool 1 is nil`},
		{"duplicate tool", prompt.SectionSpec{Key: "files", Title: "Files", Tools: []*wink.Tool{ls, ls}},
			`section "files": duplicate tool name "ls"`},
		{"nil policy", prompt.SectionSpec{Key: "files", Title: "Files", Policies: []wink.Policy{nil}},
			`section "files": policy 0 is nil`},
		{"nil child", prompt.SectionSpec{Key: "files", Title: "Files", Children: []*prompt.Section{nil}},
			`section "files": child 0 is nil`},
		{"duplicate child key", prompt.SectionSpec{Key: "files", Title: "Files", Children: []*prompt.Section{child, child}},
			`section "files": duplicate child key "docs"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sec, err := prompt.NewSection(tt.spec)
			if err == nil {
				t.Fatalf("NewSection succeeded, want error %q", tt.want)
			}
			if sec != nil {
				t.Errorf("NewSection returned a section with an error")
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestNewSectionReportsAllErrorsAtOnce(t *testing.T) {
	_, err := prompt.NewSection(prompt.SectionSpec{
		Key: "Bad", Title: "", Template: "${a} ${b",
		Params: []prompt.Param{{Name: "x"}, {Name: "x"}},
	})
	want := strings.Join([]string{
		`section key "Bad" must match ^[a-z0-9][a-z0-9._-]*$`,
		`section "Bad": the title must be one non-empty line`,
		`section "Bad": duplicate param "x"`,
		`section "Bad": unterminated placeholder "${b" on line 1: no closing "}"`,
		`section "Bad": placeholder "${a}" on line 1 has no matching param`,
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
}

func TestNewSectionAcceptsValidKeysAndCopiesInputs(t *testing.T) {
	for _, key := range []string{"a", "0", "workspace.files", "my_section-2"} {
		if _, err := prompt.NewSection(prompt.SectionSpec{Key: key, Title: "T"}); err != nil {
			t.Errorf("key %q: %v", key, err)
		}
	}
	tools := []*wink.Tool{secTool("ls", "Lists files.", false)}
	params := []prompt.Param{{Name: "root", Required: true}}
	sec := mustSection(t, prompt.SectionSpec{Key: "files", Title: " Files ", Template: "${root}", Params: params, Tools: tools})
	tools[0] = secTool("rm", "Removes files.", false)
	params[0].Name = "changed"
	if sec.Key() != "files" || sec.Title() != "Files" || sec.Tools()[0].Name() != "ls" || sec.Params()[0].Name != "root" {
		t.Errorf("section changed with its inputs or title not trimmed: key %q title %q tool %q param %q",
			sec.Key(), sec.Title(), sec.Tools()[0].Name(), sec.Params()[0].Name)
	}
}

func TestMustSectionPanicsWithTheError(t *testing.T) {
	defer func() {
		if got, want := recover(), `prompt.MustSection: section key "X" must match ^[a-z0-9][a-z0-9._-]*$`; got != want {
			t.Errorf("panic = %v, want %s", got, want)
		}
	}()
	prompt.MustSection(prompt.SectionSpec{Key: "X", Title: "T"})
}

func TestSectionTemplateSubstitutionEscapesAndDedent(t *testing.T) {
	tests := []struct {
		name     string
		template string
		params   []prompt.Param
		vars     prompt.Vars
		want     string
	}{
		{"placeholder replaced", "Root: ${root}.", []prompt.Param{{Name: "root"}}, prompt.Vars{"root": "/ws"}, "Root: /ws."},
		{"default used", "Mode: ${mode}.", []prompt.Param{{Name: "mode", Default: "fast"}}, nil, "Mode: fast."},
		{"given empty value wins over default", "Mode: ${mode}.", []prompt.Param{{Name: "mode", Default: "fast"}},
			prompt.Vars{"mode": ""}, "Mode: ."},
		{"escape gives a literal placeholder", "Write $${HOME} or ${x}.", []prompt.Param{{Name: "x"}}, prompt.Vars{"x": "1"},
			"Write ${HOME} or 1."},
		{"other dollars literal", "Costs $5, $$ and $x.", nil, nil, "Costs $5, $$ and $x."},
		{"values are not expanded again", "${a}", []prompt.Param{{Name: "a"}, {Name: "b"}}, prompt.Vars{"a": "${b}", "b": "no"},
			"${b}"},
		{"adjacent placeholders", "${a}${b}", []prompt.Param{{Name: "a"}, {Name: "b"}}, prompt.Vars{"a": "1", "b": "2"}, "12"},
		{"indented raw string dedented and trimmed", "\n\t\tFirst line.\n\t\t  indented ${a}\n\n\t\tLast.\n\t",
			[]prompt.Param{{Name: "a"}}, prompt.Vars{"a": "x"}, "First line.\n  indented x\n\nLast."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sec := mustSection(t, prompt.SectionSpec{Key: "s", Title: "S", Template: tt.template, Params: tt.params})
			r, err := prompt.Must("p", sec).Render(tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			if want := "## S\n\n" + tt.want + "\n"; r.Text != want {
				t.Errorf("text:\n got %q\nwant %q", r.Text, want)
			}
		})
	}
}

func FuzzSectionTemplate(f *testing.F) {
	for _, s := range []string{"", "plain", "${x}", "$${x}", "${", "$$${x}", "\t a\n\t\tb ${x}\n", "${x", "${1}", "$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sec, err := prompt.NewSection(prompt.SectionSpec{Key: "s", Title: "S", Template: src, Params: []prompt.Param{{Name: "x"}}})
		if !strings.Contains(src, "${") && err != nil {
			t.Fatalf("template without placeholders refused: %v", err)
		}
		if err != nil {
			return
		}
		r, err := prompt.Must("p", sec).Render(prompt.Vars{"x": "VALUE"})
		if err != nil {
			t.Fatalf("Render: %v", err)
		}
		if !strings.HasPrefix(r.Text, "## S\n") || !strings.HasSuffix(r.Text, "\n") {
			t.Fatalf("text %q", r.Text)
		}
		if !strings.Contains(src, "$") && strings.TrimSpace(src) != "" && !strings.Contains(r.Text, strings.TrimSpace(strings.Split(strings.TrimSpace(src), "\n")[0])) {
			t.Fatalf("first line of %q missing from %q", src, r.Text)
		}
	})
}
