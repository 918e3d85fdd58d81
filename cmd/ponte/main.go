// Command ponte runs the Ponte service and its operator commands.
//
//	ponte [serve]                  run the service (the default)
//	ponte migrate                  apply database migrations and exit
//	ponte clients create --name N  create a client application; prints its keys as JSON
//	ponte clients list             list client applications
//	ponte clients disable|enable ID
//	ponte connectors set-status ID ONLINE|UNSTABLE|OFFLINE
package main

import (
	"context"
	"fmt"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ponte:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args)
	case "migrate":
		return migrate(ctx, args)
	case "clients":
		return clients(ctx, args)
	case "connectors":
		return connectors(ctx, args)
	case "help", "-h", "--help":
		fmt.Println(usage)
		return nil
	default:
		return fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
}

const usage = `usage:
  ponte [serve] [flags]             run the service (default)
  ponte migrate                     apply database migrations and exit
  ponte clients create --name NAME  create a client application (prints clientId and clientSecret as JSON)
  ponte clients list                list client applications
  ponte clients disable ID          disable a client application (its keys stop working)
  ponte clients enable ID           enable it again
  ponte clients public-key ID       print the RSA public key (PEM) for encrypting item parameters
  ponte clients set ID key=value..  per-client switches: itemsV2, itemUpdates, apiItemCreation,
                                    sandboxUpdatesOnly (true/false), itemLimit (n|none),
                                    minUpdateIntervalHours (n)
  ponte clients pricing ID PIX=F+P%  fees of non-sandbox payment requests: a fixed part in
                                    reais plus a percentage (PIX=0.50+1.2%, BOLETO=2.5)
  ponte connectors set-status ID S  set a connector's health (ONLINE, UNSTABLE, OFFLINE); sends
                                    connector/status_updated to every application

environment:
  PONTE_ADDR                  listen address (default 127.0.0.1:8080)
  DATABASE_URL                PostgreSQL URL; unset: a private cluster in $PONTE_DATA_DIR/pg
  PONTE_DATA_DIR              data folder (default ./.ponte)
  PONTE_CLIENT_ID, PONTE_CLIENT_SECRET
                              ensure a client application with exactly these keys
  PONTE_SECRET_KEY            master key for signing and encryption; unset: generated once
                              and kept in $PONTE_DATA_DIR/secret.key
  PONTE_TLS_CERT, PONTE_TLS_KEY
                              serve HTTPS (TLS 1.2 or later)
  PONTE_LOG_LEVEL             debug, info (default), warn, error
  PONTE_BASE_URL              public URL used in links the service hands out
  PONTE_SANDBOX_STEP_DELAY    pause between sandbox execution steps (default 1s)
  PONTE_JOB_TIMEOUT, PONTE_JOB_RESCUE_AFTER
                              job time-out (2m) and when a killed process's job is retried (3m)
  PONTE_ALLOW_INSECURE_WEBHOOKS  1: allow plain-HTTP and localhost webhook URLs (development)
  PONTE_WEBHOOK_RETRY         A (default) or B: the retry rules of section 6.3
  PONTE_WEBHOOK_TIMEOUT       a delivery's time-out (A: 5s, B: 10s)
  PONTE_WEBHOOK_SCHEDULE, PONTE_WEBHOOK_SHORT_SCHEDULE
                              waits before each retry, e.g. 0s,0s,1h,0s,0s,2h,0s,0s (A's);
                              the short one is for item/login_succeeded (and, in B,
                              item/waiting_user_input)
  PONTE_WEBHOOK_WORKERS       deliveries sent at once per process (50)
  PONTE_PAYMENT_AUTH_TIMEOUT  how long a payer has to authorize a payment intent (30m)
  PONTE_AUTOMATIC_PIX_AUTH_TIMEOUT
                              the same for automatic PIX authorizations (60m)
  PONTE_PAYMENT_STEP_DELAY    pause between sandbox settlement steps (2s)
  PONTE_GRAPHQL_SQL_STATS     1: GraphQL responses report extensions.sqlStatements`
