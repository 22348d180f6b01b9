// Package digest is WINK's workspace digest suite written with winkgen: a summary of a workspace kept in a
// session STATE slice (the tree's top levels, file counts by kind, sizes, notable files such as READMEs and
// manifests), capped in size, rendered in the suite's section, and refreshed by the workspace_digest tool,
// which can expand one directory at a time: the model discovers a large tree progressively instead of
// listing it.
//
//	sec, _ := digest.Section()
//	r, _ := prompt.RenderWith(prompt.RenderOptions{Vars: digest.Vars(sess, nil), Session: sess})
//
// # Decisions where the spec was silent
//
//   - A digest is computed by walking the workspace (vfs.Filesystem List, so Memory and Host alike),
//     never following linked directories, and stopping after MaxWalkEntries entries (the digest then says
//     it is partial). Counts and sizes of a directory include everything below it.
//   - Kinds are file extensions (".go", ".md"; "(none)" without one), the MaxKinds most frequent shown.
//     Notable files are, at any depth, READMEs, licences, manifests and build files (go.mod, package.json,
//     Cargo.toml, pyproject.toml, requirements.txt, Makefile, Dockerfile, ...), at most MaxNotable, the
//     shallowest first.
//   - Calling workspace_digest with no path recomputes the digest and shows the root's directories; with a
//     path it adds that directory's children to the expanded directories (at most MaxExpanded kept, the
//     oldest dropped), each listing at most MaxChildren subdirectories and files.
//   - The digest lives in Slice (a STATE slice with a generated codec, so stores keep it); Vars renders it
//     for the section's ${workspace_digest} param.
package digest

//go:generate go run github.com/winkgen/wink/cmd/winkgen
