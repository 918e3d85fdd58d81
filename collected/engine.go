// Package collected holds the read rules of what the service collected from institutions:
// accounts (and the Connect Token's reduced view of them), transactions (the v2 cursor
// pages, the deprecated page-number list, category corrections), product documents
// (investments, loans, bills, statements, consents, identity), spending aggregates, and the
// catalogue the collection runs on (connectors with their health, the category tree).
//
// Writes have their domain packages (itemsync, payments, webhooks); reads have this one.
// Each method checks the caller through auth.Require and its ownership of what it names,
// applies the interface's rules, and reads through db. graph's resolvers and rest's
// handlers call it; it imports neither.
package collected

import (
	"context"
	"time"

	"ponte/auth"
	"ponte/db"
	"ponte/itemsync"
)

// Engine serves the reads.
type Engine struct {
	db   *db.DB
	auth *auth.Service // signs and opens the after cursors
	// items checks that an item named by a read belongs to the caller, with the rules of
	// GET /items/{id} (a Connect Token reaches only its own item).
	items *itemsync.Engine
	now   func() time.Time

	// legacyCounts keeps GET /transactions totals between pages (zero value ready).
	legacyCounts legacyCounts
	owners       owners
}

// New returns the read engine. now is the clock of date rules (the sunset of GET
// /transactions); nil means time.Now.
func New(store *db.DB, a *auth.Service, items *itemsync.Engine, now func() time.Time) *Engine {
	if now == nil {
		now = time.Now
	}
	return &Engine{db: store, auth: a, items: items, now: now, owners: newOwners()}
}

// reads is the store for a pure read: the read replica when the request may use it
// (db.Reader decides), the primary otherwise.
func (e *Engine) reads(ctx context.Context) *db.DB { return e.db.Reader(ctx) }

// nonNil makes empty lists render as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
