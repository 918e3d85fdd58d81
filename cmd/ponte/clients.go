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
		found, unacked, err := authn.SetClientEnabled(ctx, id, sub == "enable")
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
	case "pricing":
		// clients pricing ID PIX=0.50+1.2% ...: the fees of non-sandbox payment requests by
		// method, a fixed part in reais plus a percentage of the amount.
		id, err := clientArg(fs, sub)
		if err != nil {
			return err
		}
		pricing, err := store.ClientPaymentPricing(ctx, id)
		if err != nil {
			return fmt.Errorf("no client application %s: %w", id, err)
		}
		if pricing == nil {
			pricing = map[string]db.PaymentPrice{}
		}
		for _, kv := range fs.Args()[1:] {
			method, price, err := parsePrice(kv)
			if err != nil {
				return err
			}
			pricing[method] = price
		}
		if err := store.SetClientPaymentPricing(ctx, id, pricing); err != nil {
			return err
		}
		return out.Encode(pricing)
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
