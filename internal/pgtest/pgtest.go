// Package pgtest gives tests a real PostgreSQL database: DSN returns a fresh empty database on the server
// named by $WINK_POSTGRES_DSN, or, when it is not set, on a throwaway cluster (internal/pgcluster) that
// the test process starts on first use and stops when Main's tests end. Without a PostgreSQL server on
// the machine the test fails with what to install; it is never skipped.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/winkgen/wink/internal/pgcluster"
)

var (
	once    sync.Once
	cluster *pgcluster.Cluster
	admin   string
	err     error
	seq     atomic.Int64
)

// adminDSN returns the DSN of the server's maintenance database, starting the cluster on first use.
func adminDSN() (string, error) {
	once.Do(func() {
		if dsn := os.Getenv("WINK_POSTGRES_DSN"); dsn != "" {
			admin = dsn
			return
		}
		cluster, err = pgcluster.Start("")
		if err == nil {
			admin = cluster.DSN("postgres")
		}
	})
	return admin, err
}

// DSN returns the DSN of a new, empty database for the test.
func DSN(tb testing.TB) string {
	tb.Helper()
	a, err := adminDSN()
	if err != nil {
		tb.Fatalf("pgtest: no PostgreSQL server for the test: %v (set WINK_POSTGRES_DSN to use your own)", err)
	}
	name := fmt.Sprintf("wink_test_%d_%d", os.Getpid(), seq.Add(1))
	dsn, err := pgcluster.CreateDB(context.Background(), a, name)
	if err != nil {
		tb.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	return dsn
}

// Cluster returns the throwaway cluster the process started (starting it if needed), or nil when
// $WINK_POSTGRES_DSN names the server. Tests that take the server down use it.
func Cluster(tb testing.TB) *pgcluster.Cluster {
	tb.Helper()
	if _, err := adminDSN(); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	return cluster
}

// Main runs the tests and stops the cluster afterwards; call it from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	if cluster != nil {
		cluster.Stop()
	}
	os.Exit(code)
}
