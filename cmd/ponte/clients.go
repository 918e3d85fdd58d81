package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/urfave/cli/v3"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

func migrate(ctx context.Context, c *config) error {
	// Opening the database applies the migrations.
	_, closeDB, err := openDatabase(ctx, c, true)
	if err != nil {
		return err
	}
	closeDB()
	fmt.Println("migrations applied")
	return nil
}

// operator opens what the operator commands work on: the database (its own cluster when
// DATABASE_URL is unset) and the credentials service. Commands check their arguments
// before calling it, so a mistyped command opens nothing.
//
// A command that only reads (readOnly) creates nothing: with no data folder (and no
// DATABASE_URL) or no key it says so instead of making a cluster and a key to read nothing
// from.
func operator(ctx context.Context, readOnly bool) (*db.DB, *auth.Service, func(), error) {
	c, err := loadConfig(nil)
	if err != nil {
		return nil, nil, nil, err
	}
	if readOnly {
		if err := c.existing(); err != nil {
			return nil, nil, nil, err
		}
	}
	key, err := c.masterKey(c.logger())
	if err != nil {
		return nil, nil, nil, err
	}
	store, closeDB, err := openDatabase(ctx, c, true)
	if err != nil {
		return nil, nil, nil, err
	}
	return store, auth.NewService(store, key), closeDB, nil
}

func printJSON(v any) error {
	out := json.NewEncoder(os.Stdout)
	out.SetIndent("", "  ")
	return out.Encode(v)
}

// clientID reads the client id argument of a subcommand that takes exactly n arguments
// (n < 0: at least one).
func clientID(cmd *cli.Command, n int) (uuid.UUID, error) {
	if cmd.NArg() == 0 || n >= 0 && cmd.NArg() != n {
		return uuid.Nil, usagef("usage: ponte clients %s %s", cmd.Name, cmd.ArgsUsage)
	}
	id, err := uuid.Parse(cmd.Args().First())
	if err != nil {
		return uuid.Nil, usagef("client id %q is not a UUID", cmd.Args().First())
	}
	return id, nil
}

func clientsCommand() *cli.Command {
	return &cli.Command{
		Name: "clients", Usage: "manage client applications (the API's callers)", Action: parent,
		Commands: []*cli.Command{
			{
				Name: "create", Usage: "create a client application; prints its clientId and clientSecret as JSON (the secret only this once)",
				Flags: []cli.Flag{&cli.StringFlag{Name: "name", Usage: "the application's name (required)"}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := noArgs(cmd); err != nil {
						return err
					}
					if cmd.String("name") == "" {
						return usagef("clients create needs --name NAME")
					}
					_, authn, done, err := operator(ctx, false)
					if err != nil {
						return err
					}
					defer done()
					client, secret, err := authn.NewClient(ctx, cmd.String("name"))
					if err != nil {
						return err
					}
					return printJSON(map[string]string{"clientId": client.ID.String(), "clientSecret": secret, "name": client.Name})
				},
			},
			{
				Name: "list", Usage: "list client applications as JSON",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := noArgs(cmd); err != nil {
						return err
					}
					store, _, done, err := operator(ctx, true)
					if err != nil {
						return err
					}
					defer done()
					list, err := store.ListClients(ctx)
					if err != nil {
						return err
					}
					if list == nil {
						list = []*model.ClientApplication{} // "[]": no clients yet, not null
					}
					return printJSON(list)
				},
			},
			{Name: "disable", Usage: "disable a client application: its API keys stop working at once, for good", ArgsUsage: "ID", Action: setEnabled(false)},
			{Name: "enable", Usage: "enable a client application again; it needs new API keys (POST /auth)", ArgsUsage: "ID", Action: setEnabled(true)},
			{
				Name: "public-key", Usage: "print the RSA public key (PEM) an application encrypts item parameters with", ArgsUsage: "ID",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					id, err := clientID(cmd, 1)
					if err != nil {
						return err
					}
					_, authn, done, err := operator(ctx, true)
					if err != nil {
						return err
					}
					defer done()
					pem, err := authn.ClientPublicKeyPEM(ctx, id)
					if err != nil {
						return err
					}
					fmt.Print(pem)
					return nil
				},
			},
			{
				Name: "set", ArgsUsage: "ID key=value...",
				Usage: "set per-client switches: itemsV2, itemUpdates, apiItemCreation, sandboxUpdatesOnly (true/false), itemLimit (n|none), minUpdateIntervalHours (n)",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					id, err := clientID(cmd, -1)
					if err != nil {
						return err
					}
					kvs := cmd.Args().Slice()[1:]
					for _, kv := range kvs { // checked on a scratch copy before opening anything
						if err := applySetting(&db.ClientSettings{}, kv); err != nil {
							return usageError{err}
						}
					}
					store, _, done, err := operator(ctx, false)
					if err != nil {
						return err
					}
					defer done()
					settings, err := store.ClientSettings(ctx, id)
					if err != nil {
						return fmt.Errorf("no client application %s: %w", id, err)
					}
					for _, kv := range kvs {
						_ = applySetting(settings, kv)
					}
					if err := store.SetClientSettings(ctx, id, settings); err != nil {
						return err
					}
					return printJSON(settings)
				},
			},
			{
				Name: "pricing", ArgsUsage: "ID METHOD=PRICE...",
				Usage: "set the fees of non-sandbox payment requests by method: a fixed part in reais and/or a percentage (PIX=0.50+1.2%, BOLETO=2.5)",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					id, err := clientID(cmd, -1)
					if err != nil {
						return err
					}
					prices := map[string]db.PaymentPrice{}
					for _, kv := range cmd.Args().Slice()[1:] {
						method, price, err := parsePrice(kv)
						if err != nil {
							return usageError{err}
						}
						prices[method] = price
					}
					store, _, done, err := operator(ctx, false)
					if err != nil {
						return err
					}
					defer done()
					pricing, err := store.ClientPaymentPricing(ctx, id)
					if err != nil {
						return fmt.Errorf("no client application %s: %w", id, err)
					}
					if pricing == nil {
						pricing = map[string]db.PaymentPrice{}
					}
					maps.Copy(pricing, prices)
					if err := store.SetClientPaymentPricing(ctx, id, pricing); err != nil {
						return err
					}
					return printJSON(pricing)
				},
			},
		},
	}
}

// setEnabled is the action of clients enable and disable.
func setEnabled(enable bool) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		id, err := clientID(cmd, 1)
		if err != nil {
			return err
		}
		_, authn, done, err := operator(ctx, false)
		if err != nil {
			return err
		}
		defer done()
		found, unacked, err := authn.SetClientEnabled(ctx, id, enable)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("no client application %s", id)
		}
		if unacked > 0 {
			// Those processes lost their database session; they read the flag per request
			// until it is back, so the change holds there too.
			fmt.Fprintf(os.Stderr, "%d service process(es) did not acknowledge the change in time\n", unacked)
		}
		fmt.Printf("client %s %sd\n", id, cmd.Name)
		return nil
	}
}

func applySetting(s *db.ClientSettings, kv string) error {
	key, value, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("setting %q must be key=value", kv)
	}
	boolean := func(dst *bool) error {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s must be true or false", key)
		}
		*dst = b
		return nil
	}
	switch key {
	case "itemsV2":
		return boolean(&s.ItemsV2Enabled)
	case "itemUpdates":
		return boolean(&s.ItemUpdatesEnabled)
	case "apiItemCreation":
		return boolean(&s.APIItemCreationEnabled)
	case "sandboxUpdatesOnly":
		return boolean(&s.SandboxUpdatesOnly)
	case "itemLimit":
		if value == "" || value == "none" {
			s.ItemLimit = nil
			return nil
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("itemLimit must be a non-negative number or none")
		}
		s.ItemLimit = &n
		return nil
	case "minUpdateIntervalHours":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return fmt.Errorf("minUpdateIntervalHours must be a non-negative number")
		}
		s.MinUpdateIntervalHours = n
		return nil
	}
	return fmt.Errorf("unknown setting %q (itemsV2, itemUpdates, apiItemCreation, sandboxUpdatesOnly, itemLimit, minUpdateIntervalHours)", key)
}

// parsePrice reads METHOD=FIXED, METHOD=PERCENT% or METHOD=FIXED+PERCENT%.
func parsePrice(kv string) (string, db.PaymentPrice, error) {
	method, value, ok := strings.Cut(kv, "=")
	method = strings.ToUpper(method)
	if !ok || (method != "PIX" && method != "BOLETO") {
		return "", db.PaymentPrice{}, fmt.Errorf("price %q must be PIX=... or BOLETO=..., for example PIX=0.50+1.2%%", kv)
	}
	var p db.PaymentPrice
	for _, part := range strings.Split(value, "+") {
		pct := strings.HasSuffix(part, "%")
		f, err := strconv.ParseFloat(strings.TrimSuffix(part, "%"), 64)
		if err != nil || f < 0 {
			return "", p, fmt.Errorf("price %q: %q is not a non-negative number", kv, part)
		}
		if pct {
			p.Percent = f
		} else {
			p.Fixed = f
		}
	}
	return method, p, nil
}
