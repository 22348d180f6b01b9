package pgcluster

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Clusters started while another runs are made from the first one's fresh data directory, not by initdb:
// each is a cluster of its own (what one keeps, the other never sees), they run side by side, and the
// copy of the data directory goes when the last cluster stops.
func TestClustersFromTheTemplateAreIndependent(t *testing.T) {
	ctx := context.Background()
	first, err := Start("")
	if err != nil {
		t.Fatal(err)
	}
	template.Lock()
	tdir := template.dir
	template.Unlock()
	if tdir == "" {
		first.Stop()
		t.Fatal("no template kept after the first cluster's initdb")
	}
	second, err := Start("")
	if err != nil {
		first.Stop()
		t.Fatal(err)
	}
	// Each accepts connections and keeps its own data.
	for i, c := range []*Cluster{first, second} {
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if _, err := conn.Exec(ctx, "CREATE TABLE only_in_first (x int)"); err != nil {
				t.Fatal(err)
			}
		} else {
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_first'").Scan(&n); err != nil || n != 0 {
				t.Fatalf("the second cluster sees the first one's table: %d (%v)", n, err)
			}
		}
		conn.Close(ctx)
	}
	// The template was copied before any server ran on it: no server's files in it.
	if _, err := os.Stat(tdir + "/data/postmaster.pid"); !os.IsNotExist(err) {
		t.Errorf("the template holds a postmaster.pid (%v)", err)
	}
	first.Stop()
	if _, err := os.Stat(tdir); err != nil {
		t.Errorf("the template went while a cluster still runs: %v", err)
	}
	second.Stop()
	if _, err := os.Stat(tdir); !os.IsNotExist(err) {
		t.Errorf("the template outlived the last cluster (%v)", err)
	}
}
