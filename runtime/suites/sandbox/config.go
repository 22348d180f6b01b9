package sandbox

import (
	"time"

	"github.com/winkgen/wink/runtime/resources"
)

// Config tunes the sandbox. The zero value of a field means its DefaultConfig value.
type Config struct {
	// Bwrap is the bubblewrap binary; "" finds bwrap on PATH.
	Bwrap string
	// EnvAllow lists the environment variable names a call may set.
	EnvAllow []string
	// MaxProcs bounds the processes and threads of one call.
	MaxProcs int
	// MaxOutputBytes is how much of the output the model is shown.
	MaxOutputBytes int
	// HardOutputBytes is the output after which the command is killed.
	HardOutputBytes int64
	// MaxTimeout bounds the timeout a call may ask for.
	MaxTimeout time.Duration
	// MaxWorkspaceBytes bounds the file data one call may add to the workspace (vfs.Growth.Bytes); it is
	// also the largest file a command may write anywhere (RLIMIT_FSIZE). A command past it is stopped and
	// the call fails, rolled back.
	MaxWorkspaceBytes int64
	// MaxWorkspaceEntries bounds the files, directories and links one call may add to the workspace.
	MaxWorkspaceEntries int64
}

// DefaultConfig is the configuration without a ConfigKey binding.
var DefaultConfig = Config{
	MaxProcs:        256,
	MaxOutputBytes:  32 << 10,
	HardOutputBytes: 64 << 20,
	MaxTimeout:      10 * time.Minute,
	// What one command may add to the workspace: 1 GiB, as much as one vfs.Host snapshot copies by
	// default (vfs.DefaultMaxSnapshotBytes), and 100,000 entries.
	MaxWorkspaceBytes:   1 << 30,
	MaxWorkspaceEntries: 100_000,
}

// ConfigKey is the resource a dispatcher binds to configure the sandbox
// (resources.Instance(sandbox.ConfigKey, &cfg)).
var ConfigKey = resources.NewKey[*Config]("sandbox.Config")

// withDefaults fills c's zero fields from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig
	if c.Bwrap != "" {
		d.Bwrap = c.Bwrap
	}
	if c.EnvAllow != nil {
		d.EnvAllow = c.EnvAllow
	}
	if c.MaxProcs > 0 {
		d.MaxProcs = c.MaxProcs
	}
	if c.MaxOutputBytes > 0 {
		d.MaxOutputBytes = c.MaxOutputBytes
	}
	if c.HardOutputBytes > 0 {
		d.HardOutputBytes = c.HardOutputBytes
	}
	if c.MaxTimeout > 0 {
		d.MaxTimeout = c.MaxTimeout
	}
	if c.MaxWorkspaceBytes > 0 {
		d.MaxWorkspaceBytes = c.MaxWorkspaceBytes
	}
	if c.MaxWorkspaceEntries > 0 {
		d.MaxWorkspaceEntries = c.MaxWorkspaceEntries
	}
	return d
}
