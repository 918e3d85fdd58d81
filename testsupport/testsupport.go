// Package testsupport gives every test its own world against a real PostgreSQL: one
// throwaway cluster per test binary (or TEST_DATABASE_URL), a template database migrated and
// seeded once, and per test a database cloned from that template plus a running HTTP server.
package testsupport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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
	"ponte/model"
	"ponte/payments"
	"ponte/rest"
	"ponte/sandbox"
	"ponte/sandbox/payer"
	"ponte/webhooks"
)

// MasterKey is the fixed signing and encryption key of test services.
var MasterKey = []byte("ponte-test-master-key-0123456789abcdef")

var (
	setupOnce sync.Once
	setupErr  error
	cluster   *db.Cluster
	adminURL  string // a URL whose database part is replaced per database
	template  string
	prefix    string
	adminMu   sync.Mutex
	admin     *pgx.Conn
	counter   atomic.Int64
)

// Main runs a test binary's tests, then the after functions, then stops the cluster the
// tests shared, and exits. Call it from TestMain.
func Main(m *testing.M, after ...func()) {
	runLoadIfAsked()
	code := m.Run()
	for _, f := range after {
		f()
	}
	if admin != nil {
		_ = admin.Close(context.Background())
	}
	if cluster != nil {
		_ = cluster.Stop()
		_ = os.RemoveAll(cluster.Dir)
	}
	os.Exit(code)
}

func setup() error {
	ctx := context.Background()
	prefix = fmt.Sprintf("t%d_", os.Getpid())
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		adminURL = u
	} else {
		// Short path: the socket path inside the folder is limited to ~100 bytes.
		dir, err := os.MkdirTemp("", "ponte-pg-")
		if err != nil {
			return err
		}
		c, err := db.StartCluster(ctx, dir, db.ClusterOptions{Ephemeral: true})
		if err != nil {
			return fmt.Errorf("start test cluster: %w", err)
		}
		cluster = c
		adminURL = c.URL("postgres")
	}
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	admin = conn
	template = prefix + "template"
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{template}.Sanitize()); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	store, err := db.Prepare(ctx, withDatabase(adminURL, template), institutions.Catalogue("https://ponte.example"))
	if err != nil {
		return fmt.Errorf("prepare template: %w", err)
	}
	store.Close()
	return nil
}

// withDatabase swaps the database name of a postgres URL.
func withDatabase(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	return u.String()
}

// NewDatabase clones the template into a fresh database and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	setupOnce.Do(func() { setupErr = setup() })
	if setupErr != nil {
		t.Fatalf("test database: %v", setupErr)
	}
	name := fmt.Sprintf("%s%d", prefix, counter.Add(1))
	adminMu.Lock()
	// FILE_COPY clones at the file level: far faster than WAL_LOG for a small template.
	_, err := admin.Exec(context.Background(), "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+
		" TEMPLATE "+pgx.Identifier{template}.Sanitize()+" STRATEGY FILE_COPY")
	adminMu.Unlock()
	if err != nil {
		t.Fatalf("clone test database: %v", err)
	}
	if cluster == nil {
		// On a shared server, leave nothing behind.
		t.Cleanup(func() {
			adminMu.Lock()
			defer adminMu.Unlock()
			_, _ = admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
		})
	}
	return withDatabase(adminURL, name)
}

// Env is one test's service: its own database, the resolvers and an HTTP server in front.
type Env struct {
	T        testing.TB
	URL      string // base URL of the HTTP server
	DBURL    string
	DB       *db.DB
	Auth     *auth.Service
	Resolver *graph.Resolver
	REST     rest.Config // what rest.New was given beside the resolvers
	Server   *httptest.Server
	Sync     *itemsync.Engine
	Jobs     *jobs.Client
	Webhooks *webhooks.Engine
	Payments *payments.Engine
}

// Logger discards service logs unless PONTE_TEST_LOG is set, so failures stay readable.
func Logger() *slog.Logger {
	if os.Getenv("PONTE_TEST_LOG") != "" {
		return slog.New(model.LogRequestIDs(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Setup is what an Option may adjust before the service starts.
type Setup struct {
	DB       *db.DB // the test's store, for options that build on it
	Resolver *graph.Resolver
	REST     *rest.Config
	Sync     *itemsync.Config
	Jobs     *jobs.Config
	Webhooks *webhooks.Config
	Payments *payments.Config
	Faults   *faults.Config
	// UncachedAccountLists leaves the account list cache off (no listener), so every list
	// is read from the database: for counts of the statements a query runs.
	UncachedAccountLists bool
}

// Option adjusts a test service (smaller limits, shorter time-outs).
type Option func(*Setup)

// New starts a service over a fresh database: resolvers, job workers and an HTTP server.
func New(t testing.TB, options ...Option) *Env {
	t.Helper()
	dbURL := NewDatabase(t)
	ctx := context.Background()
	store, err := db.Open(ctx, dbURL)
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	a := auth.NewService(store, MasterKey)
	res := &graph.Resolver{Auth: a, Log: Logger(), CountStatements: db.CountStatements}
	restCfg := rest.Config{Database: store, Idempotency: idempotency.New(store, a.AnswerSealer(), res.Log)}
	syncCfg := itemsync.DefaultConfig()
	syncCfg.StepDelay = 0
	syncCfg.Institutions = institutions.All(store.SandboxUserDescription)
	jobsCfg := jobs.Config{PollInterval: 50 * time.Millisecond, JobTimeout: 10 * time.Second, RescueAfter: 15 * time.Second, Log: Logger(),
		Queues: map[string]int{webhooks.Queue: webhooks.Workers, payments.Queue: payments.Workers}}
	hooksCfg := webhooks.DefaultConfig()
	payCfg := payments.DefaultConfig()
	payCfg.StepDelay = 0
	payCfg.Institution, payCfg.Directory = payer.New(store), payer.NewDirectory(store)
	faultsCfg := faults.DefaultConfig()
	setup := &Setup{DB: store, Resolver: res, REST: &restCfg, Sync: &syncCfg, Jobs: &jobsCfg, Webhooks: &hooksCfg, Payments: &payCfg,
		Faults: &faultsCfg}
	for _, o := range options {
		o(setup)
	}
	syncCfg.AllowInsecureWebhooks = hooksCfg.AllowInsecure
	srv := httptest.NewUnstartedServer(nil)
	syncCfg.BaseURL = "http://" + srv.Listener.Addr().String()
	eng := itemsync.New(store, a, MasterKey, syncCfg, res.Log)
	hooksCfg.BaseURL = syncCfg.BaseURL
	hooks := webhooks.New(store, MasterKey, hooksCfg, res.Log)
	payCfg.BaseURL = syncCfg.BaseURL
	payCfg.AllowInsecureWebhooks = hooksCfg.AllowInsecure
	pay := payments.New(store, payCfg, res.Log)
	pay.AddClockWork(eng) // items' automatic sync on test clocks
	workers := river.NewWorkers()
	periodic := eng.Register(workers)
	hooks.Register(workers)
	pay.Register(workers)
	periodic = append(periodic, pay.Periodic()...)
	queue, err := jobs.New(store.Pool, workers, periodic, jobsCfg)
	if err != nil {
		t.Fatalf("job queue: %v", err)
	}
	eng.SetJobs(queue)
	hooks.SetJobs(queue)
	pay.SetJobs(queue)
	res.Sync, res.WebhookEngine, res.Payments = eng, hooks, pay
	res.Collected = collected.New(store, a, eng, res.Now)
	res.Faults = faults.New(store, faultsCfg, res.Log)
	res.SandboxUserStore, res.SandboxUserRules = store, sandbox.UserRules{}
	res.Directory = merchants.New(store)
	restCfg.Faults = res.Faults
	if err := queue.Start(ctx); err != nil {
		t.Fatalf("start job queue: %v", err)
	}
	listenCtx, stopListening := context.WithCancel(ctx)
	go a.Listen(listenCtx, res.Log)
	if !setup.UncachedAccountLists {
		go store.ListenAccounts(listenCtx, res.Log)
	}
	srv.Config = rest.NewHTTPServer(rest.New(res, restCfg)) // the service's own limits and time-outs
	srv.Start()
	t.Cleanup(func() {
		stopListening()
		srv.Close()
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = queue.Stop(stopCtx)
		store.Close()
	})
	return &Env{T: t, URL: srv.URL, DBURL: dbURL, DB: store, Auth: a, Resolver: res, REST: restCfg, Server: srv, Sync: eng, Jobs: queue, Webhooks: hooks, Payments: pay}
}

// Exec runs SQL directly against the test's database, for arranging states the API cannot
// reach quickly (a disabled client, an expired row).
func (e *Env) Exec(t testing.TB, sql string, args ...any) {
	t.Helper()
	if _, err := e.DB.Pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("exec %q: %v", strings.SplitN(sql, "\n", 2)[0], err)
	}
}

// AddProcess starts another set of job workers on the test's database, with its own pool,
// as a second replica of the service would.
func (e *Env) AddProcess(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	store, err := db.Open(ctx, e.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	syncCfg := itemsync.DefaultConfig()
	syncCfg.StepDelay = 0
	syncCfg.Institutions = institutions.All(store.SandboxUserDescription)
	a := auth.NewService(store, MasterKey)
	eng := itemsync.New(store, a, MasterKey, syncCfg, Logger())
	hooks := webhooks.New(store, MasterKey, e.Webhooks.Config(), Logger())
	pay := payments.New(store, e.Payments.Config(), Logger())
	pay.AddClockWork(eng) // items' automatic sync on test clocks
	workers := river.NewWorkers()
	periodic := eng.Register(workers)
	hooks.Register(workers)
	pay.Register(workers)
	periodic = append(periodic, pay.Periodic()...)
	queue, err := jobs.New(store.Pool, workers, periodic, jobs.Config{PollInterval: 50 * time.Millisecond, JobTimeout: 10 * time.Second,
		RescueAfter: 15 * time.Second, Log: Logger(), Queues: map[string]int{webhooks.Queue: webhooks.Workers, payments.Queue: payments.Workers}})
	if err != nil {
		t.Fatal(err)
	}
	eng.SetJobs(queue)
	hooks.SetJobs(queue)
	pay.SetJobs(queue)
	if err := queue.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = queue.Stop(stopCtx)
		store.Close()
	})
}
