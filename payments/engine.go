// Package payments initiates PIX payments: requests an application creates, intents that
// carry a payer's attempt through consent and settlement, customers, recipients, dated
// schedules, and the consent page that stands in for the payer's bank in the sandbox.
// Every move of a request or intent goes through the transition tables of states.go, in
// a transaction that also records its events and the jobs that continue it.
package payments

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/brdocs"
	"ponte/db"
	"ponte/jobs"
	"ponte/model"
)

// Config tunes payments.
type Config struct {
	// BaseURL is where this service is reached: paymentUrl and consentUrl start with it.
	BaseURL string
	// AuthorizationTimeout ends an attempt the payer has not authorized (section 8: 30
	// minutes; automatic PIX 60).
	AuthorizationTimeout time.Duration
	// AutomaticPixTimeout is the same for an automatic PIX authorization (60 minutes).
	AutomaticPixTimeout time.Duration
	// Institution is the payer's institution every payment is initiated at, and Directory
	// the PIX key directory recipients are resolved in (cmd/ponte gives the sandbox's).
	Institution Institution
	Directory   Directory
	// StepDelay spaces the settlement steps of the payer's institution.
	StepDelay time.Duration
	// ScheduleAt is when a payment dated d runs; by default at 08:00 in São Paulo.
	ScheduleAt func(d time.Time) time.Time
	// AllowInsecureWebhooks lets a request's webhookUrl use plain HTTP and localhost.
	AllowInsecureWebhooks bool
	// BoletoProtestAfter is how long an OVERDUE boleto waits before it is PROTESTED
	// (PONTE_BOLETO_PROTEST_AFTER, default 30 days).
	BoletoProtestAfter time.Duration
	// RequestExpiry is how long a request may wait for a payment before it becomes EXPIRED
	// (PONTE_PAYMENT_REQUEST_EXPIRY, default 30 days).
	RequestExpiry time.Duration
}

// DefaultConfig is the service's configuration before environment overrides.
func DefaultConfig() Config {
	return Config{AuthorizationTimeout: 30 * time.Minute, AutomaticPixTimeout: time.Hour, StepDelay: 2 * time.Second,
		BoletoProtestAfter: 30 * 24 * time.Hour, RequestExpiry: 30 * 24 * time.Hour}
}

// SaoPaulo is the zone payment dates are in.
var SaoPaulo = func() *time.Location {
	if l, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return l
	}
	return time.FixedZone("BRT", -3*3600)
}()

func (c Config) scheduleAt(d time.Time) time.Time {
	if c.ScheduleAt != nil {
		return c.ScheduleAt(d)
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 8, 0, 0, 0, SaoPaulo)
}

// Queue is the job queue of payment steps, time-outs and dated payments, apart from item
// executions so that neither waits for the other.
const Queue = "payments"

// Workers is how many payment jobs a process runs at once: a settlement step mostly waits
// (the payer's institution's pace), so they are cheap.
const Workers = 20

// Engine runs payments.
type Engine struct {
	db   *db.DB
	jobs *jobs.Client
	cfg  Config
	log  *slog.Logger
	// clockWork is due work other packages keep on test clocks (AddClockWork).
	clockWork []ClockWork
}

// New builds the engine; SetJobs must follow before it serves. cfg names the payer's
// institution and the PIX directory: an engine without them could not settle anything.
func New(store *db.DB, cfg Config, log *slog.Logger) *Engine {
	if cfg.Institution == nil || cfg.Directory == nil {
		panic("payments.New: Config.Institution and Config.Directory are required")
	}
	if cfg.AuthorizationTimeout == 0 {
		cfg.AuthorizationTimeout = 30 * time.Minute
	}
	if cfg.AutomaticPixTimeout == 0 {
		cfg.AutomaticPixTimeout = time.Hour
	}
	return &Engine{db: store, cfg: cfg, log: log}
}

// now is the time for work done under ctx: a test clock's time for an object on a clock
// (model.WithClock), else real time.
func (e *Engine) now(ctx context.Context) time.Time { return model.Now(ctx) }

// SetJobs gives the engine the queue its continuations go to.
func (e *Engine) SetJobs(j *jobs.Client) { e.jobs = j }

// Register adds the payment workers.
func (e *Engine) Register(w *river.Workers) {
	river.AddWorker(w, &stepWorker{e: e})
	river.AddWorker(w, &timeoutWorker{e: e})
	river.AddWorker(w, &scheduledWorker{e: e})
	river.AddWorker(w, &autoPixWorker{e: e})
	e.registerBoletos(w)
	river.AddWorker(w, &refundWorker{e: e})
	river.AddWorker(w, &expiryWorker{e: e})
	river.AddWorker(w, &smartTransferWorker{e: e})
	river.AddWorker(w, &bulkWorker{e: e})
	river.AddWorker(w, &clockAdvanceWorker{e: e})
}

func bad(format string, args ...any) error {
	return model.Fail(model.CodeInvalidParameter, format, args...)
}

// digits keeps the characters of a document typed with or without punctuation (dots,
// hyphen, slash, spaces): digits, and the letters of an alphanumeric CNPJ in upper case.
// Anything else leaves the input as it was, for the validator to refuse.
func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		case r != '.' && r != '-' && r != '/' && r != ' ':
			return s
		}
	}
	return b.String()
}

func checkCPF(field, v string) (string, error) {
	d := digits(v)
	if !brdocs.ValidCPF(d) {
		return "", model.Fail(model.CodeInvalidCPF, "%s %q is not a valid CPF: 11 digits whose two check digits match.", field, v)
	}
	return d, nil
}

func checkCNPJ(field, v string) (string, error) {
	d := digits(v)
	if !brdocs.ValidCNPJ(d) {
		return "", model.Fail(model.CodeInvalidCNPJ, "%s %q is not a valid CNPJ: 12 digits or letters, then two check digits that match.", field, v)
	}
	return d, nil
}

func parseID(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil {
		return uuid.Nil, bad("%s %q is not a valid id (a UUID).", field, v)
	}
	return id, nil
}

func strPtr(s string) *string { return &s }

func nonEmpty(p *string) bool { return p != nil && strings.TrimSpace(*p) != "" }

// MaxAmount is the largest amount, in reais, any payment may carry.
const MaxAmount = 1_000_000_000

// checkAmount accepts a positive number of reais with at most two decimal places, up to
// MaxAmount. Amounts are float64 in the model, so the rule reads the shortest decimal that
// gives the same float: for any number a client writes with up to 15 significant digits
// that is exactly what it wrote. A tolerance on v*100 let 0.000000001 through (stored as
// R$ 0.00) and 10.005 (stored as 10.01).
func checkAmount(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 || v > MaxAmount {
		return bad("%s must be a positive number of reais, at most 1,000,000,000 (got %v).", field, v)
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > 2 {
		return bad("%s has at most two decimal places (got %s).", field, s)
	}
	return nil
}

// Config is the engine's configuration (a second process of the same service reuses it).
func (e *Engine) Config() Config { return e.cfg }
