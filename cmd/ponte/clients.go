package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/google/uuid"

	"ponte/auth"
)

func migrate(ctx context.Context, args []string) error {
	c, err := loadConfig("migrate", args)
	if err != nil {
		return err
	}
	// Opening the database applies the migrations.
	_, closeDB, err := openDatabase(ctx, c, true)
	if err != nil {
		return err
	}
	closeDB()
	fmt.Println("migrations applied")
	return nil
}

func clients(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New("clients needs a subcommand: create, list, enable, disable")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("clients "+sub, flag.ContinueOnError)
	name := fs.String("name", "", "name of the client application")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := loadConfig("clients", nil)
	if err != nil {
		return err
	}
	key, err := c.masterKey(c.logger())
	if err != nil {
		return err
	}
	store, closeDB, err := openDatabase(ctx, c, true)
	if err != nil {
		return err
	}
	defer closeDB()
	authn := auth.NewService(store, key)
	out := json.NewEncoder(os.Stdout)
	out.SetIndent("", "  ")

	switch sub {
	case "create":
		if *name == "" {
			return errors.New("clients create needs --name")
		}
		client, secret, err := authn.NewClient(ctx, *name)
		if err != nil {
			return err
		}
		return out.Encode(map[string]string{"clientId": client.ID.String(), "clientSecret": secret, "name": client.Name})
	case "list":
		list, err := store.ListClients(ctx)
		if err != nil {
			return err
		}
		return out.Encode(list)
	case "enable", "disable":
		if fs.NArg() != 1 {
			return fmt.Errorf("clients %s needs a client id", sub)
		}
		id, err := uuid.Parse(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("client id: %w", err)
		}
		found, err := store.SetClientEnabled(ctx, id, sub == "enable")
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("no client application %s", id)
		}
		fmt.Printf("client %s %sd\n", id, sub)
		return nil
	default:
		return fmt.Errorf("unknown clients subcommand %q", sub)
	}
}
