package gen

import (
	"bytes"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/winkgen/wink/gen/model"
)

// stdImports are the standard library packages generated code may name.
var stdImports = []string{"maps", "math", "regexp", "slices", "strconv", "time"}

// nameImports gives every package the generated file may import a name that no package-level identifier
// of p uses (a package may declare its own time, math or wink): the package's name when it is free, else
// the name followed by the first number that makes it free. Names are chosen in import-path order, so
// they do not depend on which imports a given output happens to use.
func nameImports(f *jen.File, p *model.Package) {
	names := map[string]string{WinkPath: "wink", sjPath: "strictjson", sessionPath: "session"}
	for _, path := range stdImports {
		names[path] = path
	}
	for path, name := range p.PkgNames {
		names[path] = name
	}
	paths := make([]string, 0, len(names))
	for path := range names {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	used := map[string]bool{}
	for _, path := range paths {
		name := names[path]
		alias := name
		for i := 2; used[alias] || jen.IsReservedWord(alias) || taken(p, alias); i++ {
			alias = name + itoa(i)
		}
		used[alias] = true
		if alias == name {
			f.ImportName(path, name)
		} else {
			f.ImportAlias(path, alias)
		}
	}
}

func taken(p *model.Package, name string) bool {
	_, ok := p.Scope[name]
	return ok
}

// groupImports puts the standard library's imports first and the others in a second group, as goimports
// does (jennifer writes one sorted block).
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start
	var std, other []string
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		q := strings.IndexByte(line, '"')
		if q >= 0 && !strings.Contains(strings.SplitN(line[q+1:], "/", 2)[0], ".") {
			std = append(std, line)
		} else {
			other = append(other, line)
		}
	}
	block := strings.Join(std, "\n")
	if len(std) > 0 && len(other) > 0 {
		block += "\n\n"
	}
	block += strings.Join(other, "\n")
	var b bytes.Buffer
	b.Write(src[:start])
	b.WriteString(block)
	b.Write(src[end:])
	return b.Bytes()
}
