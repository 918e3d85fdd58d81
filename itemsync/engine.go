// Package itemsync runs item executions: it applies the rules of creating and updating
// items (section 4.3), and works the durable jobs that log in to a simulated institution,
// wait for MFA or user actions, and collect products.
package itemsync

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/auth"
	"ponte/db"
	"ponte/jobs"
	"ponte/model"
)

// Config holds the engine's pacing and limits.
type Config struct {
	// StepDelay paces execution steps so clients can watch progress
	// (PONTE_SANDBOX_STEP_DELAY; 0 in tests).
	StepDelay time.Duration
	// InputTimeout bounds how long MFA and user actions wait for the user.
	InputTimeout time.Duration
	// AutoSyncEvery is the interval of automatic syncs of healthy items.
	AutoSyncEvery time.Duration
	// AutoSyncRetries bounds the automatic retries of an OUTDATED item before it leaves
	// auto-sync.
	AutoSyncRetries int
	// LoginFailureLimit consecutive login errors start a cooldown of LoginCooldown.
	LoginFailureLimit int
	LoginCooldown     time.Duration
	// ErrorCooldown keeps credentials whose last execution failed on the institution's side
	// from being retried at once (ITEM_IN_ERROR_COOLDOWN).
	ErrorCooldown time.Duration
	// BaseURL is this service's public URL, for the pages standing in for institutions.
	BaseURL string
	// AllowInsecureWebhooks lets webhookUrl use plain HTTP and localhost (development).
	AllowInsecureWebhooks bool
	// Institutions are the providers behind the connectors, by the name each connector
	// gives (model.Connector.Provider).
	Institutions map[string]Institution
	// Now is the engine's clock (nil: time.Now), so tests can reach the date rules: the
	// login cooldown's end and the sunset of the page-based transactions endpoint.
	Now func() time.Time
}

// DefaultConfig is the production pacing.
func DefaultConfig() Config {
	return Config{
		StepDelay:         time.Second,
		InputTimeout:      5 * time.Minute,
		AutoSyncEvery:     24 * time.Hour,
		AutoSyncRetries:   3,
		LoginFailureLimit: 3,
		LoginCooldown:     time.Hour,
		ErrorCooldown:     2 * time.Minute,
	}
}

// Engine creates, updates and runs items.
type Engine struct {
	db     *db.DB
	sealer *auth.Sealer
	fpKey  []byte
	cfg    Config
	log    *slog.Logger
	jobs   *jobs.Client
	auth   *auth.Service
	now    func() time.Time

	catMu    sync.Mutex
	catNames map[string]string
	catErr   error
}

// categoryNames maps category ids to the English name transactions carry in `category`.
func (e *Engine) categoryNames(ctx context.Context) (map[string]string, error) {
	e.catMu.Lock()
	defer e.catMu.Unlock()
	if e.catNames != nil {
		return e.catNames, nil
	}
	e.catNames, e.catErr = e.db.CategoryNames(ctx)
	if e.catErr != nil {
		// A failed read is retried next time rather than remembered.
		e.catNames = nil
	}
	return e.catNames, e.catErr
}

// New makes an engine; call Workers to register its jobs and SetJobs once the queue exists.
func New(store *db.DB, authn *auth.Service, master []byte, cfg Config, log *slog.Logger) *Engine {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &Engine{db: store, auth: authn, sealer: auth.NewSealer(master), fpKey: auth.DeriveKey(master, "credential-fingerprint"),
		cfg: cfg, log: log, now: now}
}

// SetJobs gives the engine the queue it inserts into.
func (e *Engine) SetJobs(c *jobs.Client) { e.jobs = c }

// Register adds the engine's workers and periodic jobs.
func (e *Engine) Register(w *river.Workers) []*river.PeriodicJob {
	river.AddWorker(w, &executionWorker{e: e})
	river.AddWorker(w, &inputTimeoutWorker{e: e})
	river.AddWorker(w, &autoSyncWorker{e: e})
	river.AddWorker(w, &recategorizeWorker{e: e})
	return []*river.PeriodicJob{
		river.NewPeriodicJob(river.PeriodicInterval(time.Minute), func() (river.JobArgs, *river.InsertOpts) {
			return AutoSyncArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
		}, &river.PeriodicJobOpts{RunOnStart: true}),
	}
}

// ExecutionArgs runs (or resumes) one execution.
type ExecutionArgs struct {
	ExecutionID uuid.UUID `json:"executionId"`
}

func (ExecutionArgs) Kind() string { return "item_execution" }

// InputTimeoutArgs ends an execution whose MFA or user action was not answered in time.
type InputTimeoutArgs struct {
	ExecutionID uuid.UUID `json:"executionId"`
}

func (InputTimeoutArgs) Kind() string { return "item_input_timeout" }

// AutoSyncArgs starts the due automatic syncs.
type AutoSyncArgs struct{}

func (AutoSyncArgs) Kind() string { return "item_auto_sync" }

func ptr[T any](v T) *T { return &v }

// caller is the one gate of the engine's API operations: the request's principal, when its
// credential may perform action and reaches every item named (a Connect Token reaches only
// its own). The client id of every read and write comes from it.
func caller(ctx context.Context, action auth.Action, items ...uuid.UUID) (*auth.Principal, error) {
	p, err := auth.Require(ctx, action)
	if err != nil {
		return nil, err
	}
	for _, id := range items {
		if err := p.RequireItem(id); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (e *Engine) timeNow() model.Time { return model.NewTime(e.now()) }

// itemEvent records an item/* event: clientUserId is always present (null when unset).
func itemEvent(ctx context.Context, tx *db.Tx, it *db.ItemRow, name, triggeredBy string, extra map[string]any) error {
	payload := map[string]any{"itemId": it.ID.String(), "clientUserId": it.ClientUserID}
	if triggeredBy != "" {
		payload["triggeredBy"] = triggeredBy
	}
	for k, v := range extra {
		payload[k] = v
	}
	return tx.InsertEvent(ctx, &db.Event{ClientID: it.ClientID, Event: name, ItemID: &it.ID, TargetURL: it.WebhookURL, Payload: payload})
}

// sealParams encrypts credentials bound to the item id.
func (e *Engine) sealParams(itemID uuid.UUID, params map[string]string) []byte {
	b, _ := json.Marshal(params)
	return e.sealer.Seal(b, itemID[:])
}

func (e *Engine) openParams(itemID uuid.UUID, sealed []byte) (map[string]string, error) {
	b, err := e.sealer.Open(sealed, itemID[:])
	if err != nil {
		return nil, err
	}
	var m map[string]string
	return m, json.Unmarshal(b, &m)
}
