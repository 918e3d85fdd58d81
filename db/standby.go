package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// StartStandby makes dir, on first use, a hot standby streaming from primary: a base
// backup of it taken by pg_basebackup -R, which also writes the replication settings
// (standby.signal and primary_conninfo naming the primary's socket). The primary needs no
// setting of its own: PostgreSQL's defaults (wal_level replica, max_wal_senders 10) and
// initdb's trusted local replication connections allow it. The standby then serves
// read-only queries on its own socket, replaying the primary's WAL as it streams in.
func StartStandby(ctx context.Context, dir string, primary *Cluster, opts ClusterOptions) (*Cluster, error) {
	c, err := newCluster(dir, opts)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		cmd := c.command(c.tool("pg_basebackup"), "-D", c.Dir, "-R", "-X", "stream", "-c", "fast", "--no-sync", "-d", primary.socketConninfo())
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("pg_basebackup from %s: %w: %s", primary.Dir, err, strings.TrimSpace(string(out)))
		}
	}
	return c, c.run(ctx)
}

// socketConninfo is the libpq connection string of the cluster's socket, as PostgreSQL's
// own tools take it.
func (c *Cluster) socketConninfo() string {
	return "host=" + c.Dir + " port=" + strconv.Itoa(socketPort) + " user=postgres"
}

// tool is the path of one of the server's tools, which a PATH holding links to initdb and
// postgres alone may lack: then it is looked for beside the file initdb links to.
func (c *Cluster) tool(name string) string {
	if _, err := os.Stat(filepath.Join(c.binDir, name)); err == nil {
		return name
	}
	if real, err := filepath.EvalSymlinks(filepath.Join(c.binDir, "initdb")); err == nil {
		if p := filepath.Join(filepath.Dir(real), name); fileExists(p) {
			return p
		}
	}
	return name
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
