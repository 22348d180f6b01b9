package pgcluster

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A fresh cluster's data directory is the same every time (initdb's output depends only on the binaries
// and the options, which Start fixes), and initdb costs seconds of CPU: most of a cluster's start. So the
// first Start of a process keeps a copy of what initdb wrote, before its server first runs, and later
// Starts copy it (a few hundred milliseconds of system time) instead of running initdb again. The copy is
// kept while any cluster of the process is running and removed when the last one stops.
var template struct {
	sync.Mutex
	bin  string // the binaries that made it
	dir  string // the directory holding data/, "" when there is none
	live int    // the clusters started and not yet stopped
}

// initData fills data with a new cluster's data directory: a copy of the template when there is one for
// bin, else initdb's output (then kept as the template). The caller runs initdb through runInitdb.
func initData(bin, data string, runInitdb func() error) error {
	template.Lock()
	defer template.Unlock()
	if template.dir != "" && template.bin == bin {
		if err := copyTree(filepath.Join(template.dir, "data"), data); err == nil {
			template.live++
			return nil
		}
		os.RemoveAll(data) // initdb makes it afresh
	}
	if err := runInitdb(); err != nil {
		return err
	}
	if template.dir == "" {
		if dir, err := os.MkdirTemp("", "winkpg-template"); err == nil {
			if copyTree(data, filepath.Join(dir, "data")) == nil {
				template.dir, template.bin = dir, bin
			} else {
				os.RemoveAll(dir)
			}
		}
	}
	template.live++
	return nil
}

// released notes that a cluster started by Start has stopped; the template goes with the last one.
func released() {
	template.Lock()
	defer template.Unlock()
	if template.live--; template.live == 0 && template.dir != "" {
		os.RemoveAll(template.dir)
		template.dir = ""
	}
}

// copyTree copies the directory src to dst (which must not exist): directories, regular files and
// symbolic links, with their permissions and, where the platform has them, their owners (the cluster's
// files belong to the user the server runs as).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(to, info.Mode().Perm()); err != nil {
				return err
			}
			if err := os.Chmod(to, info.Mode().Perm()); err != nil { // not narrowed by the umask
				return err
			}
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if err := copyFile(path, to, info.Mode().Perm()); err != nil {
				return err
			}
		default:
			return &fs.PathError{Op: "copy", Path: path, Err: fs.ErrInvalid}
		}
		return chownLike(to, info)
	})
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm)
}
