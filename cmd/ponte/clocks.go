package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/urfave/cli/v3"
)

// clocksCommand is `ponte clocks advance ID TIME`: POST /sandbox/test-clocks/{id}/advance,
// then, unless --no-wait, GET the clock until its advance is done.
func clocksCommand() *cli.Command {
	return &cli.Command{
		Name:  "clocks",
		Usage: "sandbox test clocks (docs/test-clocks.md)",
		Commands: []*cli.Command{{
			Name:      "advance",
			Usage:     "advance a test clock, running everything due on it up to TIME (POST /sandbox/test-clocks/{id}/advance)",
			ArgsUsage: "ID TIME",
			Description: "ID is the clock's id; TIME the time to advance to, RFC 3339 (2031-06-01T12:00:00Z) or a date\n" +
				"(2031-06-01, midnight UTC). The command waits until the clock is ready again and prints it.",
			Flags: append(remoteFlags(),
				&cli.BoolFlag{Name: "no-wait", Usage: "print the clock as the advance starts (status advancing) and return"},
				&cli.DurationFlag{Name: "timeout", Value: 2 * time.Minute, Usage: "how long to wait for the advance to finish"},
			),
			Action: func(ctx context.Context, cmd *cli.Command) error {
				if cmd.NArg() != 2 {
					return usagef("clocks advance takes two arguments, the clock's id and the time; got %d", cmd.NArg())
				}
				id, at := cmd.Args().Get(0), cmd.Args().Get(1)
				to, err := time.Parse(time.RFC3339, at)
				if err != nil {
					if to, err = time.Parse(time.DateOnly, at); err != nil {
						return usagef("TIME must be RFC 3339 (2031-06-01T12:00:00Z) or a date (2031-06-01); got %q", at)
					}
				}
				r, err := remoteOf(cmd)
				if err != nil {
					return err
				}
				if err := r.login(ctx); err != nil {
					return err
				}
				path := "/sandbox/test-clocks/" + url.PathEscape(id)
				var clock json.RawMessage
				if err := r.call(ctx, http.MethodPost, path+"/advance", map[string]string{"frozenTime": to.UTC().Format(time.RFC3339Nano)}, &clock); err != nil {
					return err
				}
				deadline := time.Now().Add(cmd.Duration("timeout"))
				for !cmd.Bool("no-wait") {
					var c struct {
						Status string `json:"status"`
					}
					if err := json.Unmarshal(clock, &c); err != nil {
						return err
					}
					if c.Status != "advancing" {
						break
					}
					if time.Now().After(deadline) {
						return fmt.Errorf("test clock %s is still advancing after %s", id, cmd.Duration("timeout"))
					}
					select {
					case <-ctx.Done():
						return ctx.Err()
					case <-time.After(200 * time.Millisecond):
					}
					if err := r.call(ctx, http.MethodGet, path, nil, &clock); err != nil {
						return err
					}
				}
				fmt.Fprintln(cmd.Root().Writer, string(clock))
				return nil
			},
		}},
	}
}
