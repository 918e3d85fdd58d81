package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/riverqueue/river"

	"ponte/auth"
	"ponte/collected"
	"ponte/db"
	"ponte/faults"
	"ponte/graph"
	"ponte/idempotency"
	"ponte/institutions"
	"ponte/itemsync"
	"ponte/jobs"
	"ponte/merchants"
	"ponte/metrics"
	"ponte/payments"
	"ponte/rest"
	"ponte/sandbox"
	"ponte/sandbox/payer"
	"ponte/webhooks"
)

func serve(ctx context.Context, c *config) error {
	log := c.logger()
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()

	if c.AllowInsecureWebhooks {
		log.Warn("PONTE_ALLOW_INSECURE_WEBHOOKS is set: webhook URLs may use plain HTTP and localhost; never use this in production")
	}
	// What can fail without changing anything goes first: the port, then the data folder's
	// lock. A start that fails there leaves no cluster, key or client behind.
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	defer ln.Close() // the server closes it too; this covers a start that fails before serving
	if c.DatabaseURL == "" {
		release, err := lockDataDir(c.DataDir)
		if err != nil {
			return err
		}
		defer release()
	}
	key, err := c.masterKey(log)
	if err != nil {
		return err
	}
	stopTracing, err := metrics.StartTracing(ctx, version())
	if err != nil {
		return fmt.Errorf("tracing (OTEL_EXPORTER_OTLP_*): %w", err)
	}
	defer func() {
		flush, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = stopTracing(flush)
	}()
	store, closeDB, err := openDatabase(ctx, c, false)
	if err != nil {
		return err
	}
	defer closeDB()

	authn := auth.NewService(store, key)
	if err := ensureClients(ctx, c, store, authn); err != nil {
		return err
	}
	go authn.Listen(ctx, log)
	go store.ListenAccounts(ctx, log)
	counter, err := rateCounter(ctx, c, store)
	if err != nil {
		return err
	}
	res := &graph.Resolver{Auth: authn, Log: log, Limiter: auth.NewSharedLimiter(nil, counter)}
	if os.Getenv("PONTE_GRAPHQL_SQL_STATS") == "1" {
		res.CountStatements = db.CountStatements
	}
	keys := idempotency.New(store, authn.AnswerSealer(), log)
	if err := metrics.RegisterStore(metrics.Store{Pool: store.PoolStats, Depths: store.JobDepths}); err != nil {
		return err
	}

	scheme := "http"
	if c.TLSCert != "" {
		scheme = "https"
	}
	base := fmt.Sprintf("%s://%s", scheme, ln.Addr())
	if c.BaseURL == "" {
		c.BaseURL = base
	}
	syncCfg := itemsync.DefaultConfig()
	syncCfg.StepDelay = c.StepDelay
	syncCfg.BaseURL = c.BaseURL
	syncCfg.AllowInsecureWebhooks = c.AllowInsecureWebhooks
	syncCfg.Institutions = institutions.All(store.SandboxUserDescription)
	engine := itemsync.New(store, authn, key, syncCfg, log)
	c.Webhooks.BaseURL = c.BaseURL
	hooks := webhooks.New(store, key, c.Webhooks, log)
	if _, err := hooks.SealStoredHeaders(ctx); err != nil {
		return fmt.Errorf("seal stored webhook headers: %w", err)
	}
	pay := payments.New(store, payments.Config{BaseURL: c.BaseURL, AuthorizationTimeout: c.PaymentAuthTimeout,
		AutomaticPixTimeout: c.AutomaticPixAuthTimeout, StepDelay: c.PaymentStepDelay, BoletoProtestAfter: c.BoletoProtestAfter,
		RequestExpiry:         c.RequestExpiry,
		AllowInsecureWebhooks: c.AllowInsecureWebhooks,
		Institution:           payer.New(store), Directory: payer.NewDirectory(store)}, log)
	pay.AddClockWork(engine) // items' automatic sync on test clocks
	workers := river.NewWorkers()
	periodic := engine.Register(workers)
	hooks.Register(workers)
	pay.Register(workers)
	periodic = append(periodic, pay.Periodic()...)
	// The liveness lock is taken before the queue starts and dropped after it stops, so
	// every job this process takes is covered (see db/liveness.go).
	replica := jobs.NewID()
	live, err := store.HoldLiveness(ctx, replica, log)
	if err != nil {
		return fmt.Errorf("job queue liveness lock: %w", err)
	}
	defer live.Close()
	queue, err := jobs.New(store.Pool, workers, periodic, jobs.Config{Log: log, JobTimeout: c.JobTimeout, RescueAfter: c.JobRescueAfter,
		Queues: map[string]int{webhooks.Queue: c.WebhookWorkers, payments.Queue: payments.Workers}, ID: replica})
	if err != nil {
		return err
	}
	engine.SetJobs(queue)
	hooks.SetJobs(queue)
	pay.SetJobs(queue)
	res.Sync, res.WebhookEngine, res.Payments = engine, hooks, pay
	res.Collected = collected.New(store, authn, engine, res.Now)
	res.Faults = faults.New(store, faults.DefaultConfig(), log)
	res.SandboxUserStore, res.SandboxUserRules = store, sandbox.UserRules{}
	res.Directory = merchants.New(store)
	// Jobs keep running until the HTTP server has drained; a job cut short by the stop is
	// retried by whichever process runs next. Jobs and the queue's own queries are
	// LongRunning: bounded by the job time-out, not the statement time-out of requests.
	if err := queue.Start(db.LongRunning(context.WithoutCancel(ctx))); err != nil {
		return err
	}
	defer func() {
		stopCtx, done := context.WithTimeout(context.Background(), 15*time.Second)
		defer done()
		_ = queue.Stop(stopCtx)
	}()
	go engine.RunSweeper(db.LongRunning(ctx))
	go keys.RunPurge(ctx)
	go purgeRateLimits(ctx, store, log)
	go rescueJobs(ctx, store, live, log)
	restCfg := rest.Config{Database: store, Idempotency: keys, MetricsToken: c.MetricsToken, Faults: res.Faults,
		BrowserOrigins: c.BrowserOrigins}
	if store.HasReplica() {
		restCfg.ReadPins = store.PinReads
	}
	var handler http.Handler = rest.New(res, restCfg)
	if metrics.TracingConfigured() {
		// A span per request, continuing the caller's trace (W3C traceparent); the router
		// names it by route once it knows the route.
		handler = otelhttp.NewHandler(handler, "request")
	}
	srv := rest.NewHTTPServer(handler)
	if c.TLSCert != "" {
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	errc := make(chan error, 1)
	go func() {
		if c.TLSCert != "" {
			errc <- srv.ServeTLS(ln, c.TLSCert, c.TLSKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	log.Info("ponte is serving", "url", base, "replica", replica)
	// On stdout too, after any printed credentials, so people and scripts see one stream.
	fmt.Printf("Ponte is serving on %s (GraphiQL: %s/graphiql)\n", base, base)

	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		log.Info("shutting down")
	}
	shutdownCtx, done := context.WithTimeout(context.Background(), 20*time.Second)
	defer done()
	return srv.Shutdown(shutdownCtx)
}

// ensureClients applies PONTE_CLIENT_ID/SECRET, or on a first start without them creates a
// development client and prints its keys, once: only the hash is kept.
func ensureClients(ctx context.Context, c *config, store interface {
	ClientCount(context.Context) (int, error)
}, authn *auth.Service) error {
	if c.ClientID != "" {
		_, err := authn.EnsureClient(ctx, c.ClientID, c.ClientSecret)
		return err
	}
	n, err := store.ClientCount(ctx)
	if err != nil || n > 0 {
		return err
	}
	client, secret, err := authn.NewClient(ctx, "Development client")
	if err != nil {
		return err
	}
	keys, _ := json.Marshal(map[string]string{"clientId": client.ID.String(), "clientSecret": secret})
	fmt.Printf("Created a development client application. Its secret is shown only now:\n%s\n", keys)
	fmt.Printf("Get an API key: curl -s -X POST http://%s/auth -H 'Content-Type: application/json' -d '%s'\n", c.Addr, keys)
	return nil
}

// purgeRateLimits drops the shared rate-limit counters of windows that have ended, every
// minute; any replica may do it, and doing it twice costs nothing.
func purgeRateLimits(ctx context.Context, store *db.DB, log *slog.Logger) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := store.PurgeRateLimits(ctx, now.Add(-2*time.Minute)); err != nil && ctx.Err() == nil {
				log.Warn("rate-limit counter purge failed", "err", err)
			}
		}
	}
}

// rateCounter is where the replicas count rate-limited requests: PostgreSQL, or Redis when
// PONTE_REDIS_URL names one, which must answer at start.
func rateCounter(ctx context.Context, c *config, store *db.DB) (auth.Counter, error) {
	if c.RedisURL == "" {
		return store.CountRequests, nil
	}
	opts, err := redis.ParseURL(c.RedisURL)
	if err != nil {
		return nil, fmt.Errorf("PONTE_REDIS_URL: %w", err)
	}
	client := redis.NewClient(opts)
	ping, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(ping).Err(); err != nil {
		return nil, fmt.Errorf("PONTE_REDIS_URL: Redis does not answer: %w", err)
	}
	return db.RedisCounter(client), nil
}
