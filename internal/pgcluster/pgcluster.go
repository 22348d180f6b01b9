// Package pgcluster starts a throwaway PostgreSQL cluster from Debian's postgresql package (initdb and
// postgres, found under /usr/lib/postgresql/*/bin or on PATH) in a directory of its own, listening only
// on a unix socket in that directory. The tests (through internal/pgtest) and `make demo-fleet` use it;
// nothing of it is meant to outlive the process that started it: the server is killed when that process
// dies, and Stop removes the directory.
//
// PostgreSQL refuses to run as root: when the process is root, the cluster's files are owned by, and the
// server runs as, the "postgres" user that Debian's package creates (or "nobody" without it).
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throwaway cluster.
type Cluster struct {
	bin  string // the server's binaries
	dir  string // the cluster's directory: data/ and the socket
	cmd  *exec.Cmd
	done chan struct{}
	// counted: the cluster counts among the live ones that keep the template (template.go)
	counted bool
	// User is the database superuser name.
	User string
}

// ErrNoPostgres reports that no PostgreSQL server binaries were found.
var ErrNoPostgres = errors.New("pgcluster: no PostgreSQL server found (initdb and postgres); install Debian's postgresql package: apt-get install -y postgresql")

// binDir finds the directory holding initdb and postgres: the highest version under
// /usr/lib/postgresql, else the directory of initdb on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if fileExists(filepath.Join(d, "initdb")) && fileExists(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if fileExists(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrNoPostgres
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Start creates a cluster in a new directory under parent ("" for the system's temporary directory),
// starts its server and waits until it accepts connections.
func Start(parent string) (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(parent, "winkpg")
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, User: "postgres", done: make(chan struct{})}
	attr, err := processAttr(dir, false)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	err = initData(bin, data, func() error {
		initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", c.User, "--auth=trust", "-E", "UTF8",
			"--locale=C", "--no-sync")
		initdb.SysProcAttr = attr
		initdb.Dir = dir
		if out, err := initdb.CombinedOutput(); err != nil {
			return fmt.Errorf("pgcluster: initdb: %v\n%s", err, out)
		}
		return nil
	})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.bin, c.counted = bin, true
	if err := c.startServer(); err != nil {
		c.Stop()
		return nil, err
	}
	if err := c.waitReady(30 * time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		c.Stop()
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return c, nil
}

// startServer starts the server on the cluster's data directory.
func (c *Cluster) startServer() error {
	dir := c.dir
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), "-D", filepath.Join(dir, "data"), "-k", dir, "-c", "listen_addresses=",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=32MB")
	cmd.Dir = dir
	var err error
	// On Linux the server is killed when the process that started it dies, however it dies.
	if cmd.SysProcAttr, err = processAttr(dir, true); err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("pgcluster: starting postgres: %w", err)
	}
	done := make(chan struct{})
	c.cmd, c.done = cmd, done
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	return nil
}

// Restart restarts the server as an administrator does (a fast shutdown: every connection is cut and
// every open transaction rolled back; what was committed is kept), then starts it again on the same
// data and socket and waits until it accepts connections.
func (c *Cluster) Restart() error {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(os.Interrupt)
		select {
		case <-c.done:
		case <-time.After(30 * time.Second):
			return errors.New("pgcluster: the server did not stop within 30s")
		}
	}
	if err := c.startServer(); err != nil {
		return err
	}
	return c.waitReady(30 * time.Second)
}

// waitReady waits until the server accepts a connection.
func (c *Cluster) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-c.done:
			return errors.New("pgcluster: the server exited while starting")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgcluster: the server did not accept connections within %s: %w", limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Dir returns the cluster's directory.
func (c *Cluster) Dir() string { return c.dir }

// DSN returns the connection string of database db on the cluster's socket.
func (c *Cluster) DSN(db string) string {
	return "host=" + c.dir + " user=" + c.User + " dbname=" + db + " sslmode=disable"
}

// CreateDB creates database name (a plain identifier) and returns its DSN.
func (c *Cluster) CreateDB(ctx context.Context, name string) (string, error) {
	return CreateDB(ctx, c.DSN("postgres"), name)
}

// CreateDB creates database name (a plain identifier) on the server of adminDSN and returns the DSN of
// the new database (adminDSN with its dbname replaced).
func CreateDB(ctx context.Context, adminDSN, name string) (string, error) {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return "", fmt.Errorf("pgcluster: database name %q: use lowercase letters, digits and _", name)
		}
	}
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return withDB(adminDSN, name), nil
}

// withDB returns dsn naming database db: a key=value DSN gets dbname replaced or added;
// a URL gets its path replaced.
func withDB(dsn, db string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		head, query, _ := strings.Cut(dsn, "?")
		scheme, rest, _ := strings.Cut(head, "://")
		host, _, _ := strings.Cut(rest, "/")
		out := scheme + "://" + host + "/" + db
		if query != "" {
			out += "?" + query
		}
		return out
	}
	var fields []string
	replaced := false
	for _, f := range strings.Fields(dsn) {
		if strings.HasPrefix(f, "dbname=") {
			f = "dbname=" + db
			replaced = true
		}
		fields = append(fields, f)
	}
	if !replaced {
		fields = append(fields, "dbname="+db)
	}
	return strings.Join(fields, " ")
}

// Stop stops the server (fast shutdown, then a kill) and removes the cluster's directory.
func (c *Cluster) Stop() {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(os.Interrupt)
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	}
	os.RemoveAll(c.dir)
	if c.counted {
		c.counted = false
		released()
	}
}
