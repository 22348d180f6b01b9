package pgcluster

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestStartCreateConnectStop(t *testing.T) {
	c, err := Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	ctx := context.Background()
	for _, db := range []string{"one", "two"} {
		dsn, err := c.CreateDB(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := conn.QueryRow(ctx, "SELECT current_database()").Scan(&got); err != nil || got != db {
			t.Fatalf("connected to %q (%v), want %q", got, err, db)
		}
		conn.Close(ctx)
	}
	if _, err := c.CreateDB(ctx, "Bad-Name"); err == nil {
		t.Fatal("a bad database name was accepted")
	}
}

func TestWithDB(t *testing.T) {
	for in, want := range map[string]string{
		"host=/tmp/x user=postgres dbname=postgres sslmode=disable": "host=/tmp/x user=postgres dbname=d sslmode=disable",
		"host=/tmp/x user=postgres":                                 "host=/tmp/x user=postgres dbname=d",
		"postgres://u:p@localhost:5432/postgres?sslmode=disable":    "postgres://u:p@localhost:5432/d?sslmode=disable",
		"postgresql://localhost":                                    "postgresql://localhost/d",
	} {
		if got := withDB(in, "d"); got != want {
			t.Errorf("withDB(%q) = %q, want %q", in, got, want)
		}
	}
}

// Restart cuts every connection, keeps what was committed, and serves again on the same socket.
func TestRestartKeepsCommittedDataAndCutsConnections(t *testing.T) {
	c, err := Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	ctx := context.Background()
	dsn, err := c.CreateDB(ctx, "restart")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE t (x int); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO t VALUES (2)"); err != nil {
		t.Fatal(err)
	}
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err == nil {
		t.Fatal("a transaction open across the restart committed")
	}
	conn2, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close(ctx)
	var n int
	if err := conn2.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d rows after the restart (%v), want the committed one", n, err)
	}
}
