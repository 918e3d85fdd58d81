package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"ponte/jobs"
	"ponte/model"
	"ponte/webhooks"
)

func connectorsCommand() *cli.Command {
	return &cli.Command{
		Name: "connectors", Usage: "operate the connector catalogue", Action: parent,
		Commands: []*cli.Command{{
			Name: "set-status", ArgsUsage: "ID ONLINE|UNSTABLE|OFFLINE",
			Usage: "set a connector's health; records connector/status_updated for every application (a running service delivers it)",
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if cmd.NArg() != 2 {
					return usagef("usage: ponte connectors set-status ID ONLINE|UNSTABLE|OFFLINE")
				}
				id, err := strconv.Atoi(cmd.Args().Get(0))
				if err != nil {
					return usagef("connector id must be a number, not %q", cmd.Args().Get(0))
				}
				status := model.HealthStatus(strings.ToUpper(cmd.Args().Get(1)))
				if status != model.HealthOnline && status != model.HealthUnstable && status != model.HealthOffline {
					return usagef("status must be ONLINE, UNSTABLE or OFFLINE, not %q", cmd.Args().Get(1))
				}
				return setConnectorStatus(ctx, id, status)
			},
		}},
	}
}

// setConnectorStatus records the change and its connector/status_updated events; a
// running service delivers them.
func setConnectorStatus(ctx context.Context, id int, status model.HealthStatus) error {
	c, err := loadConfig(nil)
	if err != nil {
		return err
	}
	log := c.logger()
	key, err := c.masterKey(log)
	if err != nil {
		return err
	}
	store, closeDB, err := openDatabase(ctx, c, true)
	if err != nil {
		return err
	}
	defer closeDB()
	// An insert-only queue: the events' deliveries are enqueued here and sent by the service.
	queue, err := jobs.New(store.Pool, nil, nil, jobs.Config{Log: log})
	if err != nil {
		return err
	}
	hooks := webhooks.New(store, key, c.Webhooks, log)
	hooks.SetJobs(queue)
	changed, err := hooks.SetConnectorStatus(ctx, id, status)
	if err != nil {
		return err
	}
	if changed {
		fmt.Printf("connector %d is now %s; connector/status_updated recorded for every application\n", id, status)
	} else {
		fmt.Printf("connector %d already was %s; nothing sent\n", id, status)
	}
	return nil
}
