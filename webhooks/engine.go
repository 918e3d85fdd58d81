// Package webhooks delivers events to applications. Events are recorded in the outbox with
// the change that caused them; in that same transaction each one is fanned out to a
// delivery per URL (the application's webhooks for that event, and the resource's own
// webhookUrl) and a durable job per delivery. Jobs POST the signed payload, record every
// attempt, and follow the configured retry schedule.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"ponte/auth"
	"ponte/db"
	"ponte/jobs"
	"ponte/metrics"
	"ponte/model"
)

// Queue is the job queue of deliveries: separate from item executions, so a backlog of
// deliveries never delays a sync and the reverse.
const Queue = "webhooks"

// Workers is how many deliveries a process runs at once by default
// (PONTE_WEBHOOK_WORKERS). A delivery mostly waits (on its receiver, and on the shared
// statements that read deliveries and log attempts in batches), so workers cost little
// while idle; and the job queue fetches at most a queue's free workers per fetch, at most
// one fetch per cooldown (50 ms), so this bounds deliveries per second too: 50 workers
// capped a process near 1,000 per second.
const Workers = 200

// Delivery statuses.
const (
	StatusPending   = "PENDING"
	StatusDelivered = "DELIVERED"
	StatusFailed    = "FAILED"
	StatusCanceled  = "CANCELED"
)

// Variant names one of section 6.3's two retry rules.
type Variant string

const (
	// VariantA: 2xx within 5 s; three consecutive attempts, three more after an hour, three
	// more after two hours; item/login_succeeded only gets the first three.
	VariantA Variant = "A"
	// VariantB: 2xx within 10 s; three attempts (at once, 15 min, 2 h); 400, 401, 403, 404
	// and 405 are never retried; item/login_succeeded and item/waiting_user_input space
	// their attempts 6 minutes apart.
	VariantB Variant = "B"
)

// Config tunes delivery.
type Config struct {
	Variant Variant
	// Timeout cuts a receiver that has not answered; 0 is the variant's (5 s or 10 s).
	Timeout time.Duration
	// Schedule is the wait before each retry (len+1 attempts in all); nil is the variant's.
	Schedule []time.Duration
	// ShortSchedule is the same for the events the variant treats apart (see Variant); nil
	// is the variant's.
	ShortSchedule []time.Duration
	// PerHost bounds concurrent deliveries to one host across every replica on the
	// database (see hostcap.go), so a slow receiver holds at most that many workers and
	// the others keep flowing.
	PerHost int
	// AllowInsecure lifts the HTTPS and no-localhost rules on URLs and the public-address
	// rule on connections (PONTE_ALLOW_INSECURE_WEBHOOKS).
	AllowInsecure bool
	// Resolver finds the addresses of a delivery's host; nil is the system's. Tests map
	// names to addresses of their choosing.
	Resolver Resolver
	// Dial connects to an address the rules allowed; nil is a net.Dialer that checks the
	// address again as the socket connects. Tests route public addresses to loopback.
	Dial DialFunc
	// RootCAs verifies receivers' certificates; nil is the system's pool.
	RootCAs *x509.CertPool
	// Limit is how many webhooks an application may have, disabled ones included
	// (PONTE_WEBHOOK_LIMIT); 0 is DefaultLimit.
	Limit int
	// SecretOverlap is how long the previous signing secret keeps signing after a rotation.
	SecretOverlap time.Duration
	// BaseURL is the service's public address, for the links events carry
	// (transactions/created's createdTransactionsLink) when the control surface fires one.
	BaseURL string
}

// Schedules returns the retry waits in force for an event.
func (c Config) schedule(event string) []time.Duration {
	short := false
	switch c.Variant {
	case VariantB:
		short = event == "item/login_succeeded" || event == "item/waiting_user_input"
	default:
		short = event == "item/login_succeeded"
	}
	if short {
		return c.ShortSchedule
	}
	return c.Schedule
}

// DefaultConfig is variant A with its published schedule.
func DefaultConfig() Config { return Config{Variant: VariantA} }

func (c *Config) fill() {
	if c.Variant == "" {
		c.Variant = VariantA
	}
	switch c.Variant {
	case VariantB:
		if c.Timeout == 0 {
			c.Timeout = 10 * time.Second
		}
		if c.Schedule == nil {
			c.Schedule = []time.Duration{15 * time.Minute, 2 * time.Hour}
		}
		if c.ShortSchedule == nil {
			c.ShortSchedule = []time.Duration{6 * time.Minute, 6 * time.Minute}
		}
	default:
		if c.Timeout == 0 {
			c.Timeout = 5 * time.Second
		}
		if c.Schedule == nil {
			c.Schedule = []time.Duration{0, 0, time.Hour, 0, 0, 2 * time.Hour, 0, 0}
		}
		if c.ShortSchedule == nil {
			c.ShortSchedule = c.Schedule[:2]
		}
	}
	if c.PerHost == 0 {
		c.PerHost = 8
	}
	if c.SecretOverlap == 0 {
		c.SecretOverlap = 24 * time.Hour
	}
	if c.Limit == 0 {
		c.Limit = DefaultLimit
	}
}

// DefaultLimit bounds an application's webhooks: one subscribed to all covers every event,
// twenty leave room for one per event family at a few URLs, and keep one event's fan-out
// (a delivery and a job per webhook, written in the event's transaction) small.
const DefaultLimit = 20

// Engine fans events out and delivers them.
type Engine struct {
	db     *db.DB
	jobs   *jobs.Client
	cfg    Config
	log    *slog.Logger
	client *http.Client
	// sealer seals signing secrets, headerSealer custom headers: separate keys.
	sealer       *auth.Sealer
	headerSealer *auth.Sealer
	now          func() time.Time

	mu sync.Mutex
	// hosts are the hosts with deliveries running or slots kept (see hostcap.go).
	hosts map[string]*hostState
	// full marks hosts whose shared slots were all taken when last asked (see hostcap.go).
	full map[string]time.Time

	// keysMu guards keys apart from mu: every delivery reads its keys, and under load they
	// queued behind the host bookkeeping.
	keysMu sync.RWMutex
	keys   map[uuid.UUID]cachedKeys

	// reads and logs gather the deliveries' reads and attempt logs into batches.
	reads *batcher[uuid.UUID, *db.PendingDelivery]
	logs  *batcher[db.AttemptRecord, struct{}]
}

// cachedKeys spares each delivery a read and an unsealing of its application's secrets; a
// rotation reaches every process within keysTTL.
type cachedKeys struct {
	keys    [][]byte
	expires time.Time
}

const keysTTL = 10 * time.Second

// New builds the engine; call SetJobs, then Hook to start fanning events out.
func New(store *db.DB, master []byte, cfg Config, log *slog.Logger) *Engine {
	cfg.fill()
	e := &Engine{db: store, cfg: cfg, log: log, client: newClient(cfg), sealer: auth.NewSealerFor(master, "webhook-secrets"),
		headerSealer: auth.NewSealerFor(master, "webhook-headers"), now: time.Now, hosts: map[string]*hostState{}, full: map[string]time.Time{}, keys: map[uuid.UUID]cachedKeys{}}
	e.reads = newBatcher(batchSize, batchFlushers, batchTimeout, e.readDeliveries)
	e.logs = newBatcher(batchSize, batchFlushers, batchTimeout, e.recordAttempts)
	return e
}

// Batches of delivery reads and attempt logs: up to batchSize calls in one statement, at
// most batchFlushers statements of a kind at once per process, each within batchTimeout.
const (
	batchSize     = 100
	batchFlushers = 4
	batchTimeout  = 10 * time.Second
)

func (e *Engine) readDeliveries(ctx context.Context, ids []uuid.UUID) ([]*db.PendingDelivery, []error) {
	out, errs := make([]*db.PendingDelivery, len(ids)), make([]error, len(ids))
	found, err := e.db.Deliveries(ctx, ids)
	for i, id := range ids {
		out[i], errs[i] = found[id], err
	}
	return out, errs
}

// recordAttempts logs a batch of attempts; a batch that fails (one of its deliveries was
// deleted meanwhile, say) is written one attempt at a time, so one cannot fail the rest.
func (e *Engine) recordAttempts(ctx context.Context, list []db.AttemptRecord) ([]struct{}, []error) {
	out, errs := make([]struct{}, len(list)), make([]error, len(list))
	err := e.db.RecordAttempts(ctx, list)
	if err == nil || len(list) == 1 {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	for i, r := range list {
		errs[i] = e.db.RecordAttempt(ctx, r.DeliveryID, r.Attempt, r.Status)
	}
	return out, errs
}

// Config returns the configuration in force.
func (e *Engine) Config() Config { return e.cfg }

// SetJobs gives the engine the queue it inserts deliveries into, and from then on every
// event recorded through store is fanned out.
func (e *Engine) SetJobs(c *jobs.Client) {
	e.jobs = c
	e.db.OnEvent = e.fanOut
}

// Register adds the delivery worker.
func (e *Engine) Register(w *river.Workers) { river.AddWorker(w, &deliveryWorker{e: e}) }

// DeliveryArgs sends one delivery.
type DeliveryArgs struct {
	DeliveryID uuid.UUID `json:"deliveryId"`
	// Round tells a redelivery's job from the delivery's earlier one while that one still
	// reads as running (see enqueueAgain); 0, left out, for a delivery's first job.
	Round int64 `json:"round,omitempty"`
}

func (DeliveryArgs) Kind() string { return "webhook_delivery" }

func insertOpts() *river.InsertOpts {
	return &river.InsertOpts{Queue: Queue, MaxAttempts: 25, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateScheduled, rivertype.JobStateRetryable}}}
}

// fanOut writes an event's deliveries and their jobs in the event's transaction. One URL
// gets one delivery even when several subscriptions name it.
func (e *Engine) fanOut(ctx context.Context, tx *db.Tx, ev *db.Event) error {
	targets, err := tx.MatchingWebhooks(ctx, ev.ClientID, ev.Event)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	var rows []db.DeliveryRow
	for _, t := range targets {
		if !seen[t.URL] {
			seen[t.URL] = true
			id := t.ID
			rows = append(rows, db.DeliveryRow{ID: uuid.New(), EventID: ev.ID, ClientID: ev.ClientID, WebhookID: &id, URL: t.URL})
		}
	}
	if ev.TargetURL != nil && *ev.TargetURL != "" && !seen[*ev.TargetURL] {
		rows = append(rows, db.DeliveryRow{ID: uuid.New(), EventID: ev.ID, ClientID: ev.ClientID, URL: *ev.TargetURL})
	}
	if len(rows) == 0 {
		return nil
	}
	if err := tx.InsertDeliveries(ctx, rows); err != nil {
		return err
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return e.enqueue(ctx, tx, ids)
}

func (e *Engine) enqueue(ctx context.Context, tx *db.Tx, ids []uuid.UUID) error {
	if e.jobs == nil {
		return errors.New("webhooks: no job queue")
	}
	args := make([]DeliveryArgs, len(ids))
	for i, id := range ids {
		args[i] = DeliveryArgs{DeliveryID: id}
	}
	_, err := e.jobs.InsertManyTx(ctx, tx.PGX, deliveryJobs(args))
	return err
}

// deliveryJobs are the insert parameters of delivery jobs.
func deliveryJobs(args []DeliveryArgs) []river.InsertManyParams {
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		params[i] = river.InsertManyParams{Args: a, InsertOpts: insertOpts()}
	}
	return params
}

// enqueueAgain is enqueue for deliveries a redelivery restarted. A delivery's job that has
// just finished still reads as running until River records its completion (in batches,
// moments later), and uniqueness by arguments would swallow the new job: the delivery
// would stay PENDING with no job at all. A job skipped for one that reads as running is
// inserted again as the next round (its round is that job's id), until one is inserted or
// the one in the way is still to run (it will send the delivery); two quick redeliveries
// still make one job.
func (e *Engine) enqueueAgain(ctx context.Context, tx *db.Tx, ids []uuid.UUID) error {
	if e.jobs == nil {
		return errors.New("webhooks: no job queue")
	}
	args := make([]DeliveryArgs, len(ids))
	for i, id := range ids {
		args[i] = DeliveryArgs{DeliveryID: id}
	}
	// Each pass moves past one job that reads as running; a delivery has at most a few (the
	// one that just sent it, and a redelivery's), so the bound is never reached in practice.
	for pass := 0; pass < 8 && len(args) > 0; pass++ {
		res, err := e.jobs.InsertManyTx(ctx, tx.PGX, deliveryJobs(args))
		if err != nil {
			return err
		}
		var next []DeliveryArgs
		for i, r := range res {
			if r.UniqueSkippedAsDuplicate && r.Job != nil && r.Job.State == rivertype.JobStateRunning {
				next = append(next, DeliveryArgs{DeliveryID: args[i].DeliveryID, Round: r.Job.ID})
			}
		}
		args = next
	}
	return nil
}

type deliveryWorker struct {
	river.WorkerDefaults[DeliveryArgs]
	e *Engine
}

// Timeout leaves room for the request's own time-out and the bookkeeping around it.
func (w *deliveryWorker) Timeout(*river.Job[DeliveryArgs]) time.Duration { return w.e.cfg.JobTimeout() }

// JobTimeout is the longest a delivery job runs: the job queue's rescue delay must exceed
// it, or a slow delivery would be started twice.
func (c Config) JobTimeout() time.Duration {
	c.fill()
	return c.Timeout + 2*time.Second
}

// NextRetry retries a delivery whose bookkeeping failed (a database error, a time-out
// under load) after a short pause, instead of River's growing backoff: the delivery's own
// schedule is kept by snoozes, and this path must not delay it by minutes.
func (w *deliveryWorker) NextRetry(*river.Job[DeliveryArgs]) time.Time {
	return time.Now().Add(time.Second)
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[DeliveryArgs]) error {
	e := w.e
	d, err := e.reads.do(ctx, job.Args.DeliveryID)
	if err != nil {
		return err
	}
	if d == nil || d.Status != StatusPending {
		return nil
	}
	secrets, err := e.signingKeys(ctx, d.ClientID)
	if err != nil {
		return err
	}
	// The webhook's headers as they are now: never copied per delivery, so a credential
	// lives sealed in one row and a changed one applies to the retries.
	var headers model.Headers
	if d.WebhookID != nil {
		if headers, err = e.openHeaders(*d.WebhookID, d.SealedHeaders, d.LegacyHeaders); err != nil {
			return err
		}
	}
	host := hostOf(d.URL)
	p, wait := e.take(ctx, host)
	if p == nil {
		return river.JobSnooze(wait)
	}
	a := e.post(ctx, d, headers, secrets)
	e.give(ctx, p, time.Duration(a.LatencyMs)*time.Millisecond)
	status := StatusPending
	sched := e.cfg.schedule(d.Event)
	switch {
	case a.StatusCode != nil && *a.StatusCode >= 200 && *a.StatusCode < 300:
		status = StatusDelivered
	case e.cfg.Variant == VariantB && a.StatusCode != nil && neverRetried(*a.StatusCode):
		status = StatusFailed
	case a.Attempt > len(sched):
		status = StatusFailed
	}
	if _, err := e.logs.do(ctx, db.AttemptRecord{DeliveryID: d.ID, Attempt: a, Status: status}); err != nil {
		return err
	}
	// One line per attempt, with the target's host only: a URL's path and query may carry
	// the receiver's own secret.
	outcome := []any{"deliveryId", d.ID, "eventId", d.EventID, "event", d.Event, "host", host, "attempt", a.Attempt, "status", status}
	if a.StatusCode != nil {
		outcome = append(outcome, "httpStatus", *a.StatusCode)
	}
	metrics.Deliveries.WithLabelValues(status).Inc()
	switch status {
	case StatusPending:
		e.log.Info("webhook delivery will retry", append(outcome, "retryIn", sched[a.Attempt-1].String())...)
		return river.JobSnooze(sched[a.Attempt-1])
	case StatusFailed:
		e.log.Warn("webhook delivery failed for good", outcome...)
	default:
		e.log.Info("webhook delivered", outcome...)
	}
	return nil
}

func neverRetried(code int) bool {
	switch code {
	case 400, 401, 403, 404, 405:
		return true
	}
	return false
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}

// responseExcerpt bounds what is kept of a receiver's answer.
const responseExcerpt = 512

// post sends one attempt and describes how it went.
func (e *Engine) post(ctx context.Context, d *db.PendingDelivery, headers model.Headers, secrets [][]byte) *model.WebhookAttempt {
	start := e.now()
	a := &model.WebhookAttempt{Attempt: d.Attempts + 1, AttemptedAt: model.NewTime(start), URL: d.URL}
	body := []byte(d.Payload)
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		msg := err.Error()
		a.Error = &msg
		return a
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Ponte-Webhooks/1")
	id, ts := d.EventID.String(), strconv.FormatInt(start.Unix(), 10)
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", Sign(secrets, id, ts, body))
	resp, err := e.client.Do(req)
	a.LatencyMs = int(time.Since(start).Milliseconds())
	if err != nil {
		msg := err.Error()
		var refused *RefusedError
		switch {
		case errors.As(err, &refused):
			msg = refused.Error()
		case errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "Client.Timeout"):
			msg = fmt.Sprintf("no answer within %s", e.cfg.Timeout)
		}
		a.Error = &msg
		return a
	}
	defer resp.Body.Close()
	code := resp.StatusCode
	a.StatusCode = &code
	excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, responseExcerpt))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	a.LatencyMs = int(time.Since(start).Milliseconds())
	if len(excerpt) > 0 {
		s := strings.ToValidUTF8(string(excerpt), string(utf8.RuneError))
		a.Response = &s
	}
	if code < 200 || code >= 300 {
		msg := fmt.Sprintf("answered %d", code)
		a.Error = &msg
	}
	return a
}

// Sign returns the webhook-signature header of Standard Webhooks: for each secret, "v1,"
// and the base64 HMAC-SHA256 of "id.timestamp.body", space-separated.
func Sign(secrets [][]byte, id, timestamp string, body []byte) string {
	sigs := make([]string, len(secrets))
	for i, key := range secrets {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(id + "." + timestamp + "."))
		m.Write(body)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	return strings.Join(sigs, " ")
}

// secretPrefix marks a signing secret; the rest is the key in base64.
const secretPrefix = "whsec_"

// SecretKey decodes a whsec_ secret into its HMAC key.
func SecretKey(secret string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
}

func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secrets reads an application's signing secrets, creating the first on demand.
func (e *Engine) secrets(ctx context.Context, clientID uuid.UUID) (*model.SigningSecret, error) {
	sealed, err := e.db.ClientWebhookSecrets(ctx, clientID, func() []byte { return e.sealer.Seal([]byte(newSecret()), clientID[:]) })
	if err != nil {
		return nil, err
	}
	cur, err := e.sealer.Open(sealed.Current, clientID[:])
	if err != nil {
		return nil, err
	}
	out := &model.SigningSecret{Secret: string(cur)}
	if sealed.Previous != nil && sealed.RotatedAt != nil && e.now().Before(sealed.RotatedAt.Add(e.cfg.SecretOverlap)) {
		prev, err := e.sealer.Open(sealed.Previous, clientID[:])
		if err != nil {
			return nil, err
		}
		p, until := string(prev), model.NewTime(sealed.RotatedAt.Add(e.cfg.SecretOverlap))
		out.PreviousSecret, out.PreviousExpiresAt = &p, &until
	}
	return out, nil
}

func (e *Engine) signingKeys(ctx context.Context, clientID uuid.UUID) ([][]byte, error) {
	e.keysMu.RLock()
	c, ok := e.keys[clientID]
	e.keysMu.RUnlock()
	if ok && e.now().Before(c.expires) {
		return c.keys, nil
	}
	s, err := e.secrets(ctx, clientID)
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	for _, v := range []*string{&s.Secret, s.PreviousSecret} {
		if v == nil {
			continue
		}
		k, err := SecretKey(*v)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	e.keysMu.Lock()
	e.keys[clientID] = cachedKeys{keys: keys, expires: e.now().Add(keysTTL)}
	e.keysMu.Unlock()
	return keys, nil
}
