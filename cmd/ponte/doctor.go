package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/redis/go-redis/v9"
	"github.com/urfave/cli/v3"

	"ponte/db"
)

// doctorCommand checks what a start needs, without starting anything: an operator's first
// step when a replica will not come up.
func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "check the configuration, the database (reachable, migrated, its clock) and the keys; exits 1 if anything fails",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			if failed := doctor(ctx, cmd.Root().Writer); failed > 0 {
				return fmt.Errorf("%d check(s) failed", failed)
			}
			return nil
		},
	}
}

// doctor prints one line per check (ok, warn or FAIL) and returns how many failed.
func doctor(ctx context.Context, w io.Writer) (failed int) {
	report := func(level, what, detail string) {
		fmt.Fprintf(w, "%-5s %-13s %s\n", level, what, detail)
		if level == "FAIL" {
			failed++
		}
	}
	c, err := loadConfig(nil)
	if err != nil {
		report("FAIL", "configuration", err.Error())
		return failed
	}
	report("ok", "configuration", "the environment reads")
	if ln, err := net.Listen("tcp", c.Addr); err != nil {
		report("warn", "listen", c.Addr+" is taken (by a running ponte?): "+err.Error())
	} else {
		ln.Close()
		report("ok", "listen", c.Addr+" is free")
	}
	if c.AllowInsecureWebhooks {
		report("warn", "configuration", "PONTE_ALLOW_INSECURE_WEBHOOKS is on: development only")
	}
	switch {
	case c.SecretKey != "" && len(c.SecretKey) < 32:
		report("FAIL", "keys", "PONTE_SECRET_KEY is shorter than 32 characters")
	case c.SecretKey != "":
		report("ok", "keys", "PONTE_SECRET_KEY is set")
	default:
		path := filepath.Join(c.DataDir, "secret.key")
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			report("ok", "keys", path+" will be generated on the first start")
		case err != nil:
			report("FAIL", "keys", err.Error())
		case len(strings.TrimSpace(string(b))) < 32:
			report("FAIL", "keys", path+" is too short to be a key")
		default:
			report("ok", "keys", "kept in "+path)
		}
		if c.DatabaseURL != "" {
			report("warn", "keys", "with DATABASE_URL, replicas must share PONTE_SECRET_KEY; a key in the data folder is this machine's only")
		}
	}
	if c.RedisURL != "" {
		opts, _ := redis.ParseURL(c.RedisURL) // loadConfig parsed it
		rc := redis.NewClient(opts)
		ping, cancel := context.WithTimeout(ctx, 5*time.Second)
		if err := rc.Ping(ping).Err(); err != nil {
			report("FAIL", "redis", "cannot reach PONTE_REDIS_URL: "+err.Error())
		} else {
			report("ok", "redis", "reachable: rate limits are counted there")
		}
		cancel()
		_ = rc.Close()
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	url, which := c.DatabaseURL, "DATABASE_URL"
	if url == "" {
		pg := filepath.Join(c.DataDir, "pg")
		if _, err := os.Stat(filepath.Join(pg, "PG_VERSION")); err != nil {
			report("ok", "database", "DATABASE_URL is unset: a private cluster will be initialised in "+pg)
			return failed
		}
		// The private cluster is checked as an external one is: the running service's
		// server when there is one, else one started for the check and stopped after it.
		cluster, err := db.StartCluster(ctx, pg, db.ClusterOptions{Attach: true})
		if err != nil {
			report("FAIL", "database", "the private cluster in "+pg+" does not start: "+err.Error())
			return failed
		}
		defer cluster.Stop()
		url, which = cluster.URL("ponte"), "the private cluster in "+pg
		if cluster.Attached() {
			which += " (a running ponte's)"
		} else {
			which += " (started for this check, stopped after it)"
		}
	}
	checkDatabase(ctx, url, which, report)
	return failed
}

// checkDatabase reports on the database at url: reachable, migrated, its clock.
func checkDatabase(ctx context.Context, url, which string, report func(level, what, detail string)) {
	store, err := db.OpenWith(ctx, url, db.Limits{ConnectTimeout: 5 * time.Second})
	if err == nil {
		err = store.Pool.Ping(ctx)
	}
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "3D000" { // invalid_catalog_name
			report("warn", "database", which+" has no database yet: the first start (or ponte migrate) creates it")
			return
		}
		report("FAIL", "database", "cannot reach "+which+": "+err.Error())
		return
	}
	defer store.Close()
	report("ok", "database", which+" is reachable")
	switch pending, err := store.Pending(ctx); {
	case err != nil:
		report("warn", "migrations", "never applied: the first start (or ponte migrate) applies them")
	case len(pending) > 0:
		report("warn", "migrations", fmt.Sprintf("%d pending (%s): the next start or ponte migrate applies them", len(pending), strings.Join(pending, ", ")))
	default:
		report("ok", "migrations", "all applied")
	}
	if now, err := store.Clock(ctx); err != nil {
		report("FAIL", "clock", err.Error())
	} else if skew := time.Since(now); skew > 5*time.Second || skew < -5*time.Second {
		report("FAIL", "clock", fmt.Sprintf("this machine is %s off the database's clock: tokens, time-outs and schedules need them within seconds", skew.Round(time.Second)))
	} else {
		report("ok", "clock", fmt.Sprintf("within %s of the database's", skew.Abs().Round(time.Millisecond)))
	}
}
