package main

import (
	"context"
	"os"
	"path/filepath"

	"ponte/db"
	"ponte/institutions"
)

// openDatabase returns the prepared store and a function that closes it (and stops the
// private cluster, when one was started). The service (attach false) runs under the
// configured limits with the database monitor, and supervises its private cluster;
// operator commands (attach true) do neither.
func openDatabase(ctx context.Context, c *config, attach bool) (*db.DB, func(), error) {
	url := c.DatabaseURL
	stop := func() {}
	limits := db.Limits{ConnectTimeout: c.DB.ConnectTimeout}
	if !attach {
		limits = c.DB
		limits.Monitor = true
		limits.Log = c.logger()
	}
	if url == "" {
		if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
			return nil, nil, err
		}
		logFile, err := os.OpenFile(filepath.Join(c.DataDir, "postgres.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, err
		}
		cluster, err := db.StartCluster(ctx, filepath.Join(c.DataDir, "pg"), db.ClusterOptions{Log: logFile, Attach: attach,
			Supervise: !attach, Logger: c.logger()})
		if err != nil {
			logFile.Close()
			return nil, nil, err
		}
		if err := cluster.EnsureDatabase(ctx, "ponte"); err != nil {
			cluster.Stop()
			logFile.Close()
			return nil, nil, err
		}
		url = cluster.URL("ponte")
		stop = func() { cluster.Stop(); logFile.Close() }
	}
	store, err := db.PrepareWith(ctx, url, institutions.Catalogue(c.publicURL()), limits)
	if err != nil {
		stop()
		return nil, nil, err
	}
	// Operator commands read and write the primary alone.
	if c.DatabaseReadURL != "" && !attach {
		if err := store.AttachReplica(ctx, c.DatabaseReadURL, c.DB, db.ReplicaOptions{Log: c.logger()}); err != nil {
			store.Close()
			stop()
			return nil, nil, err
		}
	}
	return store, func() { store.Close(); stop() }, nil
}
