package fleet

import (
	"context"

	"github.com/winkgen/wink/internal/pgcluster"
)

// database is the throwaway PostgreSQL cluster the workers share.
type database struct {
	cluster *pgcluster.Cluster
	dsn     string
}

// startDatabase starts a throwaway cluster and creates the fleet's database on it.
func startDatabase(ctx context.Context) (*database, error) {
	c, err := pgcluster.Start("")
	if err != nil {
		return nil, err
	}
	dsn, err := c.CreateDB(ctx, "fleet")
	if err != nil {
		c.Stop()
		return nil, err
	}
	return &database{cluster: c, dsn: dsn}, nil
}

// describe says where the cluster is.
func (d *database) describe() string { return "socket in " + d.cluster.Dir() + ", database fleet" }

// stop stops the server and removes the cluster's directory.
func (d *database) stop() error {
	d.cluster.Stop()
	return nil
}
