package rest

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/idempotency"
)

// Config is what the HTTP surface needs beside the resolvers: its own infrastructure, which
// no resolver has a use for.
type Config struct {
	// Database answers the readiness probe and the database gate (db.DB is one).
	Database Database
	// Idempotency keeps first answers for Idempotency-Key replays.
	Idempotency *idempotency.Keys
	// MetricsToken, when set, lets a scraper that is not on this machine read /metrics by
	// sending it as a bearer token (PONTE_METRICS_TOKEN).
	MetricsToken string
	// BrowserOrigins are the origins (as model.Origin spells them) whose pages may read the
	// answers to Connect Token calls (cors.go) and frame the Connect page (connect.go), beside
	// a Connect Token's own targetOrigin (PONTE_BROWSER_ORIGINS).
	BrowserOrigins []string
	// Faults applies the applications' sandbox fault rules to their requests; nil: none.
	Faults Faults

	// ReadPins, when a read replica takes the read routes, records that a caller has just
	// written (db.DB.PinReads), so its reads go to the primary until the replica has
	// replayed the write; nil without a replica.
	ReadPins func(ctx context.Context, clientID uuid.UUID) error

	// StreamHeartbeat and StreamPoll time GET /sandbox/events/stream: its heartbeat comment
	// (0: every 15 s) and its reads of a quiet outbox (0: every second). Tests shorten them.
	StreamHeartbeat, StreamPoll time.Duration
}
