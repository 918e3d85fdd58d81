package rest

import "ponte/idempotency"

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
	// Faults applies the applications' sandbox fault rules to their requests; nil: none.
	Faults Faults
}
