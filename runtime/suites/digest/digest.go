package digest

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/winkgen/wink/runtime/prompt"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/suites/files"
	"github.com/winkgen/wink/runtime/vfs"
	"github.com/winkgen/wink/runtime/wink"
)

// Limits of the digest.
const (
	MaxWalkEntries = 200_000
	MaxKinds       = 12
	MaxNotable     = 30
	MaxExpanded    = 20
	MaxChildren    = 60
)

// Digest is the workspace digest the session keeps.
//
//wink:state
type Digest struct {
	// Files, Dirs and Bytes count the whole workspace.
	Files int   `json:"files"`
	Dirs  int   `json:"dirs"`
	Bytes int64 `json:"bytes"`
	// Partial says the walk stopped at MaxWalkEntries.
	Partial bool `json:"partial,omitempty"`
	// Kinds are file counts by extension, most frequent first.
	Kinds []KindCount `json:"kinds"`
	// Notable are notable files, shallowest first.
	Notable []string `json:"notable"`
	// Expanded are the directories shown so far, the root first.
	Expanded []Dir `json:"expanded"`
}

// KindCount is the number of files of one extension.
type KindCount struct {
	Ext   string `json:"ext"`
	Files int    `json:"files"`
}

// Dir is an expanded directory: its children with their sizes.
type Dir struct {
	Path     string  `json:"path"`
	Children []Child `json:"children"`
	// More is the number of children not shown.
	More int `json:"more,omitempty"`
}

// Child is one entry of an expanded directory; a directory counts everything below it.
type Child struct {
	Name  string `json:"name"`
	IsDir bool   `json:"is_dir,omitempty"`
	Files int    `json:"files,omitempty"`
	Bytes int64  `json:"bytes"`
}

// Slice is the session STATE slice holding the digest (at most one item).
var Slice = session.NewSlice[Digest]("digest.workspace", session.Rollback, session.WithCodec(WinkDigestCodec))

// Current returns the session's digest.
func Current(s *session.Session) (Digest, bool) { return session.Latest(s, Slice) }

// Vars returns the section's template values for the session's digest, added to vars (which may be nil).
func Vars(s *session.Session, vars prompt.Vars) prompt.Vars {
	out := prompt.Vars{}
	for k, v := range vars {
		out[k] = v
	}
	if d, ok := Current(s); ok {
		out["workspace_digest"] = d.Render()
	}
	return out
}

// DigestParams are the arguments of workspace_digest.
type DigestParams struct {
	// Path is a directory to expand (its children with their sizes); empty or / recomputes the digest.
	Path files.PathOrRoot `json:"path,omitempty"`
}

// WorkspaceDigest summarises the workspace (sizes, kinds of files, notable files) and expands one directory
// at a time; without a path it recomputes the summary.
//
//wink:tool
//wink:example desc="Summarise the workspace" input={}
//wink:example desc="Expand one directory" input={"path":"src"}
func WorkspaceDigest(tc *wink.ToolContext, p DigestParams) (wink.ToolResult[Digest], error) {
	fsys := tc.Filesystem()
	if fsys == nil {
		return wink.Failure[Digest]("workspace_digest needs a workspace filesystem; this dispatcher has none."), nil
	}
	s := tc.Session()
	dir := strings.Trim(string(p.Path), "/")
	prev, have := Digest{}, false
	if s != nil {
		prev, have = Current(s)
	}
	var d Digest
	if dir == "" || !have {
		w := &walker{fs: fsys, kinds: map[string]int{}}
		root, err := w.dir(".")
		if err != nil {
			return wink.Failure[Digest]("The workspace cannot be read: " + err.Error()), nil
		}
		d = w.digest(root)
	} else {
		d = prev
	}
	if dir != "" {
		e, err := fsys.Stat(dir)
		if err != nil || !e.IsDir {
			return wink.Failure[Digest]("Directory '" + dir + "' does not exist in the workspace; expand one of the directories listed in the digest."), nil
		}
		w := &walker{fs: fsys, kinds: map[string]int{}}
		sum, err := w.dir(dir)
		if err != nil {
			return wink.Failure[Digest]("Directory '" + dir + "' cannot be read: " + err.Error()), nil
		}
		d.expand(expanded(dir, sum))
	}
	if s != nil {
		session.Replace(s, Slice, func([]Digest) []Digest { return []Digest{d} })
	}
	msg := "Workspace digest: " + strconv.Itoa(d.Files) + " files in " + strconv.Itoa(d.Dirs) + " directories."
	if dir != "" {
		msg = "Expanded '" + dir + "'."
	}
	return wink.OK(d, msg), nil
}

// expand adds (or replaces) an expanded directory, keeping at most MaxExpanded (the root stays).
func (d *Digest) expand(x Dir) {
	out := d.Expanded[:0:0]
	for _, e := range d.Expanded {
		if e.Path != x.Path {
			out = append(out, e)
		}
	}
	out = append(out, x)
	for len(out) > MaxExpanded {
		i := 0
		if out[0].Path == "/" {
			i = 1
		}
		out = append(out[:i], out[i+1:]...)
	}
	d.Expanded = out
}

// summary is a directory's totals and its children's.
type summary struct {
	files, dirs int
	bytes       int64
	children    []Child
}

type walker struct {
	fs      vfs.Filesystem
	seen    int
	partial bool
	kinds   map[string]int
	notable []string
}

// dir summarises the directory p (recursively, bounded).
func (w *walker) dir(p string) (summary, error) {
	var s summary
	if w.seen >= MaxWalkEntries {
		w.partial = true
		return s, nil
	}
	entries, err := w.fs.List(p)
	if err != nil {
		return s, err
	}
	for _, e := range entries {
		w.seen++
		if w.seen > MaxWalkEntries {
			w.partial = true
			break
		}
		full := e.Name
		if p != "." {
			full = p + "/" + e.Name
		}
		if e.IsDir && !e.Link {
			sub, err := w.dir(full)
			if err != nil {
				var skip summary
				sub = skip // unreadable directories count as empty
			}
			s.dirs += 1 + sub.dirs
			s.files += sub.files
			s.bytes += sub.bytes
			s.children = append(s.children, Child{Name: e.Name, IsDir: true, Files: sub.files, Bytes: sub.bytes})
			continue
		}
		if e.IsDir {
			continue // a linked directory: not followed
		}
		s.files++
		s.bytes += e.Size
		s.children = append(s.children, Child{Name: e.Name, Bytes: e.Size})
		ext := path.Ext(e.Name)
		if ext == "" || ext == e.Name {
			ext = "(none)"
		}
		w.kinds[ext]++
		if notable(e.Name) {
			w.notable = append(w.notable, full)
		}
	}
	return s, nil
}

// digest builds the digest of the root's summary.
func (w *walker) digest(root summary) Digest {
	d := Digest{Files: root.files, Dirs: root.dirs, Bytes: root.bytes, Partial: w.partial}
	for ext, n := range w.kinds {
		d.Kinds = append(d.Kinds, KindCount{Ext: ext, Files: n})
	}
	sort.Slice(d.Kinds, func(i, j int) bool {
		if d.Kinds[i].Files != d.Kinds[j].Files {
			return d.Kinds[i].Files > d.Kinds[j].Files
		}
		return d.Kinds[i].Ext < d.Kinds[j].Ext
	})
	if len(d.Kinds) > MaxKinds {
		d.Kinds = d.Kinds[:MaxKinds]
	}
	sort.SliceStable(w.notable, func(i, j int) bool {
		di, dj := strings.Count(w.notable[i], "/"), strings.Count(w.notable[j], "/")
		if di != dj {
			return di < dj
		}
		return w.notable[i] < w.notable[j]
	})
	if len(w.notable) > MaxNotable {
		w.notable = w.notable[:MaxNotable]
	}
	d.Notable = append([]string{}, w.notable...)
	if d.Kinds == nil {
		d.Kinds = []KindCount{}
	}
	d.Expanded = []Dir{expanded("/", root)}
	return d
}

// expanded is the Dir of a summary: directories first (largest first), then files, capped.
func expanded(p string, s summary) Dir {
	ch := append([]Child{}, s.children...)
	sort.SliceStable(ch, func(i, j int) bool {
		if ch[i].IsDir != ch[j].IsDir {
			return ch[i].IsDir
		}
		if ch[i].Bytes != ch[j].Bytes {
			return ch[i].Bytes > ch[j].Bytes
		}
		return ch[i].Name < ch[j].Name
	})
	x := Dir{Path: p, Children: ch}
	if len(ch) > MaxChildren {
		x.Children, x.More = ch[:MaxChildren], len(ch)-MaxChildren
	}
	return x
}

var notableNames = map[string]bool{
	"readme": true, "readme.md": true, "readme.txt": true, "readme.rst": true, "license": true, "license.md": true,
	"license.txt": true, "copying": true, "go.mod": true, "package.json": true, "cargo.toml": true,
	"pyproject.toml": true, "requirements.txt": true, "setup.py": true, "makefile": true, "dockerfile": true,
	"pom.xml": true, "build.gradle": true, "gemfile": true, "composer.json": true, "cmakelists.txt": true,
	"contributing.md": true, "changelog.md": true,
}

func notable(name string) bool { return notableNames[strings.ToLower(name)] }

// Render is the digest as the model reads it.
func (d Digest) Render() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(d.Files) + " files in " + strconv.Itoa(d.Dirs) + " directories, " + size(d.Bytes))
	if d.Partial {
		b.WriteString(" (partial: the walk stopped after " + strconv.Itoa(MaxWalkEntries) + " entries)")
	}
	b.WriteString(".\n")
	if len(d.Kinds) > 0 {
		b.WriteString("Kinds:")
		for i, k := range d.Kinds {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(" " + k.Ext + " " + strconv.Itoa(k.Files))
		}
		b.WriteString(".\n")
	}
	if len(d.Notable) > 0 {
		b.WriteString("Notable: " + strings.Join(d.Notable, ", ") + ".\n")
	}
	for _, x := range d.Expanded {
		b.WriteString("\n" + x.Path + "\n")
		for _, c := range x.Children {
			if c.IsDir {
				b.WriteString("  " + c.Name + "/ (" + strconv.Itoa(c.Files) + " files, " + size(c.Bytes) + ")\n")
			} else {
				b.WriteString("  " + c.Name + " (" + size(c.Bytes) + ")\n")
			}
		}
		if x.More > 0 {
			b.WriteString("  … and " + strconv.Itoa(x.More) + " more\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func size(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}
