// Package devserver starts a throwaway Temporal development server (`temporal server start-dev`, its
// state in memory) on loopback for the tests and benchmarks, as internal/pgcluster starts PostgreSQL.
//
// The CLI is found as $WINK_TEMPORAL_BIN, else `temporal` on PATH, else $(go env GOPATH)/bin/temporal;
// when none exists it is built once with `go install github.com/temporalio/cli/cmd/temporal@v1.5.1`
// (about three minutes; later runs reuse the binary). v1.5.1 because later CLIs cannot be built through
// the module proxy (their go.mod replaces a module the proxy does not serve).
package devserver

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
)

// CLIModule is the module and version the CLI is built from when it is missing.
const CLIModule = "github.com/temporalio/cli/cmd/temporal@v1.5.1"

// Server is a running development server.
type Server struct {
	// HostPort is the frontend's address (127.0.0.1:port).
	HostPort string
	cmd      *exec.Cmd
	done     chan struct{}
	out      *strings.Builder
}

var buildMu sync.Mutex

// Binary returns the path of the temporal CLI, building it if needed.
func Binary(ctx context.Context) (string, error) {
	if p := os.Getenv("WINK_TEMPORAL_BIN"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	gopath, err := exec.CommandContext(ctx, "go", "env", "GOPATH").Output()
	if err != nil {
		return "", errors.New("devserver: go env GOPATH: " + err.Error())
	}
	bin := filepath.Join(strings.TrimSpace(strings.Split(string(gopath), string(os.PathListSeparator))[0]), "bin", "temporal")
	buildMu.Lock()
	defer buildMu.Unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	cmd := exec.CommandContext(ctx, "go", "install", CLIModule)
	// GOFLAGS cleared: make test sets -race for its own builds, and a race-built server would be a
	// separate, slower build of the whole CLI.
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Dir(bin), "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New("devserver: building the temporal CLI (go install " + CLIModule + "): " + err.Error() + "\n" + string(out))
	}
	return bin, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Start starts a development server on free loopback ports and waits until it serves the default
// namespace.
func Start(ctx context.Context) (*Server, error) {
	bin, err := Binary(ctx)
	if err != nil {
		return nil, err
	}
	var ports [3]int
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return nil, err
		}
	}
	s := &Server{HostPort: "127.0.0.1:" + strconv.Itoa(ports[0]), done: make(chan struct{}), out: &strings.Builder{}}
	s.cmd = exec.Command(bin, "server", "start-dev", "--ip", "127.0.0.1", "--port", strconv.Itoa(ports[0]),
		"--http-port", strconv.Itoa(ports[1]), "--metrics-port", strconv.Itoa(ports[2]), "--headless",
		"--log-level", "error",
		// One task queue partition: with the default four, a task can wait on a partition no poller of a
		// small test fleet is polling.
		"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
		"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
		// Eager activity execution: a workflow task's completion hands the activities it schedules on
		// its own task queue straight back to the worker, without the trip through the transfer queue
		// and matching (about 40 ms a task on this server: see runtime/durable/temporal/NOTES.md).
		"--dynamic-config-value", "system.enableActivityEagerExecution=true")
	s.cmd.Stdout, s.cmd.Stderr = &syncWriter{b: s.out}, &syncWriter{b: s.out}
	s.cmd.SysProcAttr = sysProcAttr()
	if err := s.cmd.Start(); err != nil {
		return nil, errors.New("devserver: starting " + bin + ": " + err.Error())
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		c, err := client.Dial(client.Options{HostPort: s.HostPort, Logger: quiet{}})
		if err == nil {
			_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			if err == nil {
				_, err = c.WorkflowService().DescribeNamespace(ctx, describeDefault())
			}
			c.Close()
			if err == nil {
				return s, nil
			}
		}
		select {
		case <-s.done:
			return nil, errors.New("devserver: the server exited: " + s.out.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.Stop()
			return nil, errors.New("devserver: the server did not answer in time: " + s.out.String())
		}
	}
}

// Stop kills the server and waits for it.
func (s *Server) Stop() {
	if s == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
}

type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() < 1<<16 {
		w.b.Write(p)
	}
	return len(p), nil
}

// quiet is a client logger that drops everything (the SDK's default logs every poll error).
type quiet struct{}

func (quiet) Debug(string, ...interface{}) {}
func (quiet) Info(string, ...interface{})  {}
func (quiet) Warn(string, ...interface{})  {}
func (quiet) Error(string, ...interface{}) {}

// Quiet returns a client logger that drops everything.
func Quiet() interface {
	Debug(string, ...interface{})
	Info(string, ...interface{})
	Warn(string, ...interface{})
	Error(string, ...interface{})
} {
	return quiet{}
}
