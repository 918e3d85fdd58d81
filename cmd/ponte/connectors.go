package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"ponte/jobs"
	"ponte/model"
	"ponte/webhooks"
)

// connectors runs the operator's connector commands. set-status records the change and its
// connector/status_updated events; a running service delivers them.
func connectors(ctx context.Context, args []string) error {
	if len(args) != 3 || args[0] != "set-status" {
		return errors.New("usage: ponte connectors set-status ID ONLINE|UNSTABLE|OFFLINE")
	}
	id, err := strconv.Atoi(args[1])
	if err != nil {
		return fmt.Errorf("connector id must be a number, not %q", args[1])
	}
	c, err := loadConfig("connectors", nil)
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
	changed, err := hooks.SetConnectorStatus(ctx, id, model.HealthStatus(strings.ToUpper(args[2])))
	if err != nil {
		return err
	}
	if changed {
		fmt.Printf("connector %d is now %s; connector/status_updated recorded for every application\n", id, strings.ToUpper(args[2]))
	} else {
		fmt.Printf("connector %d already was %s; nothing sent\n", id, strings.ToUpper(args[2]))
	}
	return nil
}
