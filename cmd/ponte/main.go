// Command ponte runs the Ponte service and its operator commands; `ponte --help` and
// `ponte COMMAND --help` describe them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v3"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// usageError is a mistake in how the command was called: a missing or extra argument, an
// unknown command or flag, a value of the wrong form. It exits with status 2 and is found
// before anything is opened, so a mistyped command never creates the data folder.
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// run executes one command line and returns the exit status: 0, 1 when the command
// failed, 2 when it was called wrongly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := commands()
	asUsageErrors(root)
	root.Writer, root.ErrWriter = stdout, stderr
	err := root.Run(ctx, args)
	if err == nil {
		return 0
	}
	if errors.As(err, new(usageError)) {
		// One line: what was wrong, and where the usage is. The help itself goes to stdout
		// only when asked for.
		fmt.Fprintf(stderr, "ponte: %v (see ponte --help, or ponte COMMAND --help)\n", err)
		return 2
	}
	fmt.Fprintln(stderr, "ponte:", err)
	return 1
}

// asUsageErrors makes every command's flag errors usage errors (exit 2, one line): urfave/cli
// asks each command's own OnUsageError, and without one prints the whole help instead.
func asUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, _ *cli.Command, err error, _ bool) error { return usageError{err} }
	for _, sub := range cmd.Commands {
		asUsageErrors(sub)
	}
}

// serveFlags are the service's flags; each overrides the environment variable it names.
func serveFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "addr", Usage: "listen address (PONTE_ADDR, default 127.0.0.1:8080)"},
		&cli.StringFlag{Name: "database-url", Usage: "PostgreSQL URL (DATABASE_URL; unset: a private cluster in the data folder)"},
		&cli.StringFlag{Name: "data-dir", Usage: "data folder (PONTE_DATA_DIR, default ./.ponte)"},
		&cli.StringFlag{Name: "tls-cert", Usage: "TLS certificate file (PONTE_TLS_CERT)"},
		&cli.StringFlag{Name: "tls-key", Usage: "TLS key file (PONTE_TLS_KEY)"},
		&cli.StringFlag{Name: "log-level", Usage: "debug, info, warn or error (PONTE_LOG_LEVEL, default info)"},
		&cli.StringFlag{Name: "log-format", Usage: "text or json (PONTE_LOG_FORMAT, default text)"},
	}
}

// flagsOf applies the flags a command line set over the environment's values.
func flagsOf(cmd *cli.Command) func(*config) {
	return func(c *config) {
		for name, dst := range map[string]*string{"addr": &c.Addr, "database-url": &c.DatabaseURL, "data-dir": &c.DataDir,
			"tls-cert": &c.TLSCert, "tls-key": &c.TLSKey, "log-level": &c.LogLevel, "log-format": &c.LogFormat} {
			if cmd.IsSet(name) {
				*dst = cmd.String(name)
			}
		}
	}
}

// noArgs refuses arguments a command does not take: they used to be ignored silently.
func noArgs(cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("%s takes no arguments; got %q", cmd.FullName(), cmd.Args().Slice())
	}
	return nil
}

func commands() *cli.Command {
	serveAction := func(ctx context.Context, cmd *cli.Command) error {
		if cmd.NArg() > 0 && cmd.Name == "serve" {
			return noArgs(cmd)
		}
		if cmd.NArg() > 0 {
			return usagef("unknown command %q", cmd.Args().First())
		}
		c, err := loadConfig(flagsOf(cmd))
		if err != nil {
			return err
		}
		return serve(ctx, c)
	}
	return &cli.Command{
		Name:        "ponte",
		Usage:       "financial data aggregation and payment initiation for Brazil",
		Description: environmentHelp,
		Version:     version(),
		Flags:       serveFlags(),
		Action:      serveAction,
		// Errors are returned to run, which prints them and picks the exit status.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		Commands: []*cli.Command{
			{Name: "serve", Usage: "run the service (the default command)", Flags: serveFlags(), Action: serveAction},
			{
				Name: "migrate", Usage: "apply the database migrations and exit", Flags: serveFlags(),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if err := noArgs(cmd); err != nil {
						return err
					}
					c, err := loadConfig(flagsOf(cmd))
					if err != nil {
						return err
					}
					return migrate(ctx, c)
				},
			},
			clientsCommand(),
			connectorsCommand(),
			merchantsCommand(),
			doctorCommand(),
			triggerCommand(),
			listenCommand(),
			clocksCommand(),
			{
				Name: "version", Usage: "print the version and the commit it was built from",
				Action: func(_ context.Context, cmd *cli.Command) error {
					if err := noArgs(cmd); err != nil {
						return err
					}
					fmt.Fprintln(cmd.Root().Writer, "ponte", version())
					return nil
				},
			},
		},
	}
}

// parent is the action of a command that only groups subcommands: called bare or with an
// unknown subcommand it is a usage error naming the ones that exist.
func parent(ctx context.Context, cmd *cli.Command) error {
	var names []string
	for _, s := range cmd.Commands {
		if !s.Hidden && s.Name != "help" {
			names = append(names, s.Name)
		}
	}
	if cmd.NArg() == 0 {
		return usagef("%s needs a subcommand: %v", cmd.FullName(), names)
	}
	return usagef("%s has no subcommand %q; it has %v", cmd.FullName(), cmd.Args().First(), names)
}

// version is the module's version and the commit it was built from, as the Go toolchain
// records them (go build in a git checkout, go install of a tagged version).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	if rev == "" {
		return v + ", commit not recorded (built outside a git checkout or with -buildvcs=false)"
	}
	return v + " commit " + rev + modified
}

const environmentHelp = `Without a command, ponte serves. Configuration comes from the environment; the flags of
serve and migrate override the variables they name.

   PONTE_ADDR                  listen address (default 127.0.0.1:8080)
   DATABASE_URL                PostgreSQL URL; unset: a private cluster in $PONTE_DATA_DIR/pg
   DATABASE_READ_URL           a streaming standby of DATABASE_URL for the read routes
   PONTE_DATA_DIR              data folder (default ./.ponte)
   PONTE_CLIENT_ID, PONTE_CLIENT_SECRET
                               ensure a client application with exactly these keys
   PONTE_SECRET_KEY            master key for signing and encryption; unset: generated once
                               and kept in $PONTE_DATA_DIR/secret.key
   PONTE_TLS_CERT, PONTE_TLS_KEY
                               serve HTTPS (TLS 1.2 or later)
   PONTE_LOG_LEVEL             debug, info (default), warn, error
   PONTE_LOG_FORMAT            text (default) or json
   PONTE_BASE_URL              public URL used in links the service hands out
   PONTE_SANDBOX_STEP_DELAY    pause between sandbox execution steps (default 1s)
   PONTE_JOB_TIMEOUT, PONTE_JOB_RESCUE_AFTER
                               job time-out (2m) and when a job still running is retried (3m; a
                               killed process's jobs are taken back within seconds anyway)
   PONTE_ALLOW_INSECURE_WEBHOOKS  1: allow plain-HTTP and localhost webhook URLs (development)
   PONTE_WEBHOOK_LIMIT         webhooks an application may have (20)
   PONTE_WEBHOOK_RETRY         A (default) or B: the two retry rules docs/webhooks.md describes
   PONTE_WEBHOOK_TIMEOUT       a delivery's time-out (A: 5s, B: 10s)
   PONTE_WEBHOOK_SCHEDULE, PONTE_WEBHOOK_SHORT_SCHEDULE
                               waits before each retry, e.g. 0s,0s,1h,0s,0s,2h,0s,0s (A's);
                               the short one is for item/login_succeeded (and, in B,
                               item/waiting_user_input)
   PONTE_WEBHOOK_WORKERS       deliveries sent at once per process (200)
   PONTE_PAYMENT_AUTH_TIMEOUT  how long a payer has to authorize a payment intent (30m)
   PONTE_AUTOMATIC_PIX_AUTH_TIMEOUT
                               the same for automatic PIX authorizations (60m)
   PONTE_PAYMENT_STEP_DELAY    pause between sandbox settlement and boleto payer steps (2s)
   PONTE_BOLETO_PROTEST_AFTER  how long an OVERDUE boleto waits before PROTESTED (720h)
   PONTE_PAYMENT_REQUEST_EXPIRY  how long an unpaid payment request waits before EXPIRED (720h)
   PONTE_DB_CONNECT_TIMEOUT, PONTE_DB_ACQUIRE_TIMEOUT, PONTE_DB_STATEMENT_TIMEOUT
                               bounds on database waits (3s, 5s, 5s; 0 lifts one)
   PONTE_REDIS_URL             count rate limits in Redis (redis://[user:password@]host:port/db,
                               rediss:// for TLS) instead of PostgreSQL
   PONTE_METRICS_TOKEN         bearer token a scraper on another machine sends to /metrics
   PONTE_GRAPHQL_SQL_STATS     1: GraphQL responses report extensions.sqlStatements`
