package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
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
	case "public-key":
		id, err := clientArg(fs, sub)
		if err != nil {
			return err
		}
		pem, err := authn.ClientPublicKeyPEM(ctx, id)
		if err != nil {
			return err
		}
		fmt.Print(pem)
		return nil
	case "set":
		// clients set ID key=value ...: the per-client switches a hosted subscription decides.
		id, err := clientArg(fs, sub)
		if err != nil {
			return err
		}
		settings, err := store.ClientSettings(ctx, id)
		if err != nil {
			return fmt.Errorf("no client application %s: %w", id, err)
		}
		for _, kv := range fs.Args()[1:] {
			if err := applySetting(settings, kv); err != nil {
				return err
			}
		}
		if err := store.SetClientSettings(ctx, id, settings); err != nil {
			return err
		}
		return out.Encode(settings)
	default:
		return fmt.Errorf("unknown clients subcommand %q", sub)
	}
}

func clientArg(fs *flag.FlagSet, sub string) (uuid.UUID, error) {
	if fs.NArg() < 1 {
		return uuid.Nil, fmt.Errorf("clients %s needs a client id", sub)
	}
	id, err := uuid.Parse(fs.Arg(0))
	if err != nil {
		return uuid.Nil, fmt.Errorf("client id: %w", err)
	}
	return id, nil
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
