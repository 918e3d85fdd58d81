package db

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"ponte/model"
)

// ItemRow is an item with the columns the API never shows.
type ItemRow struct {
	bun.BaseModel `bun:"table:items,alias:i"`
	model.Item
	Credentials        []byte     `bun:"credentials"`
	Fingerprint        *string    `bun:"fingerprint"`
	LastMFAHash        *string    `bun:"last_mfa_hash"`
	ConsecutiveErrors  int        `bun:"consecutive_errors"`
	AutoSyncFailures   int        `bun:"auto_sync_failures"`
	LastClientUpdateAt *time.Time `bun:"last_client_update_at"`
	LastLoginFailureAt *time.Time `bun:"last_login_failure_at"`
	ExecutionID        *uuid.UUID `bun:"execution_id,type:uuid"`
	Executions         int        `bun:"executions"`
	ConnectTokenID     *uuid.UUID `bun:"connect_token_id,type:uuid"`
	// TransactionsReadAt is when the item's transactions were last read, with
	// TransactionsReadKey what they were read with (migration 0052).
	TransactionsReadAt  *time.Time `bun:"transactions_read_at"`
	TransactionsReadKey *string    `bun:"transactions_read_key"`
}

// ItemExists reports whether clientID owns item id. Another client's item does not exist
// for the caller, so the two cases answer alike.
func (c *conn) ItemExists(ctx context.Context, clientID, id uuid.UUID) (bool, error) {
	var ok bool
	err := c.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM items WHERE id = $1 AND client_id = $2)`, id, clientID).Scan(&ok)
	return ok, err
}

// InsertItem stores a new item.
func (tx *Tx) InsertItem(ctx context.Context, it *ItemRow) error {
	_, err := tx.bun.NewInsert().Model(it).Exec(ctx)
	return err
}

// Item reads one of clientID's items; found is false for unknown ids and other clients'
// items alike.
func (d *DB) Item(ctx context.Context, clientID, id uuid.UUID) (*ItemRow, bool, error) {
	it := new(ItemRow)
	err := d.bun.NewSelect().Model(it).Where("i.id = ? AND i.client_id = ?", id, clientID).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return it, err == nil, err
}

// LockItem reads an item for update inside tx; clientID uuid.Nil skips the owner check
// (the sync engine acts for every client).
func (tx *Tx) LockItem(ctx context.Context, clientID, id uuid.UUID) (*ItemRow, bool, error) {
	it := new(ItemRow)
	q := tx.bun.NewSelect().Model(it).Where("i.id = ?", id).For("UPDATE")
	if clientID != uuid.Nil {
		q = q.Where("i.client_id = ?", clientID)
	}
	err := q.Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return it, err == nil, err
}

// SaveItem writes every column of the item. An item on a test clock is dated by the clock
// time ctx carries (model.WithClock), others by real time.
func (tx *Tx) SaveItem(ctx context.Context, it *ItemRow) error {
	now := time.Now()
	if c, ok := model.ClockOf(ctx); ok && it.TestClockID != nil && *it.TestClockID == c.ID {
		now = c.Now
	}
	it.UpdatedAt = model.NewTime(now)
	_, err := tx.bun.NewUpdate().Model(it).WherePK().Exec(ctx)
	return err
}

// DeleteItem removes an item and everything collected for it: transactions explicitly
// (they carry no foreign key, for ingestion speed), the rest through foreign keys.
func (tx *Tx) DeleteItem(ctx context.Context, id uuid.UUID) error {
	tx.changingAccounts(id)
	if _, err := tx.pg.Exec(ctx, `DELETE FROM transactions WHERE item_id = $1 AND account_id IN (SELECT id FROM accounts WHERE item_id = $1)`, id); err != nil {
		return err
	}
	_, err := tx.bun.NewDelete().Model((*ItemRow)(nil)).Where("id = ?", id).Exec(ctx)
	return err
}

// ItemsWithFingerprint lists clientID's items holding the same credentials.
func (tx *Tx) ItemsWithFingerprint(ctx context.Context, clientID uuid.UUID, fingerprint string) ([]*ItemRow, error) {
	var list []*ItemRow
	err := tx.bun.NewSelect().Model(&list).Where("i.client_id = ? AND i.fingerprint = ?", clientID, fingerprint).
		Order("i.created_at DESC").Limit(100).Scan(ctx)
	return list, err
}

// CountItems counts clientID's items, for the per-client creation cap.
func (tx *Tx) CountItems(ctx context.Context, clientID uuid.UUID) (int, error) {
	n, err := tx.bun.NewSelect().Model((*ItemRow)(nil)).Where("client_id = ?", clientID).Count(ctx)
	return int(n), err
}

// ItemKey is an item's place in the order of GET /v2/items (newest first): created_at as
// stored, to the microsecond, and the id that breaks ties. model.Time keeps milliseconds,
// and a key cut to them would skip the later rows of the same millisecond.
type ItemKey struct {
	CreatedAt time.Time
	ID        uuid.UUID
}

// listedItem is an item with its exact created_at, which only listing needs.
type listedItem struct {
	ItemRow        `bun:",extend"`
	ExactCreatedAt time.Time `bun:"exact_created_at,scanonly"`
}

// ListItems reads one page of clientID's items, newest first, after the key (nil: from the
// newest), with each item's key.
func (d *DB) ListItems(ctx context.Context, clientID uuid.UUID, f model.ItemFilter, after *ItemKey, limit int) ([]*ItemRow, []ItemKey, error) {
	var list []*listedItem
	q := d.bun.NewSelect().Model(&list).ColumnExpr("i.*").ColumnExpr("i.created_at AS exact_created_at").Where("i.client_id = ?", clientID)
	if f.ClientUserID != nil {
		q = q.Where("i.client_user_id = ?", *f.ClientUserID)
	}
	if f.ConnectorID != nil {
		q = q.Where("i.connector_id = ?", *f.ConnectorID)
	}
	if after != nil {
		q = q.Where("(i.created_at, i.id) < (?, ?)", after.CreatedAt, after.ID)
	}
	if err := q.OrderExpr("i.created_at DESC, i.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, nil, err
	}
	rows, keys := make([]*ItemRow, len(list)), make([]ItemKey, len(list))
	for i, l := range list {
		rows[i], keys[i] = &l.ItemRow, ItemKey{l.ExactCreatedAt, l.ID}
	}
	return rows, keys, nil
}

// CountItems counts clientID's items that match the filter.
func (d *DB) CountItems(ctx context.Context, clientID uuid.UUID, f model.ItemFilter) (int, error) {
	q := d.bun.NewSelect().Model((*ItemRow)(nil)).Where("i.client_id = ?", clientID)
	if f.ClientUserID != nil {
		q = q.Where("i.client_user_id = ?", *f.ClientUserID)
	}
	if f.ConnectorID != nil {
		q = q.Where("i.connector_id = ?", *f.ConnectorID)
	}
	n, err := q.Count(ctx)
	return int(n), err
}

// ExecutionRow is one execution of an item.
type ExecutionRow struct {
	bun.BaseModel `bun:"table:executions,alias:e"`
	ID            uuid.UUID  `bun:"id,pk,type:uuid"`
	ItemID        uuid.UUID  `bun:"item_id,type:uuid"`
	ConnectorID   int        `bun:"connector_id"`
	Number        int        `bun:"number"`
	TriggeredBy   string     `bun:"triggered_by"`
	Status        string     `bun:"status"`
	Steps         []string   `bun:"steps,array"`
	MFAAnswer     []byte     `bun:"mfa_answer"`
	ActionTimeout *string    `bun:"action_timeout"`
	UploadID      *uuid.UUID `bun:"upload_id,type:uuid"`
	StartedAt     time.Time  `bun:"started_at"`
	FinishedAt    *time.Time `bun:"finished_at"`
	// Control is the sandbox control action that caused the execution; Forced the outcome
	// one told it to end in (migration 0029).
	Control *string                     `bun:"control"`
	Forced  *model.SandboxNextExecution `bun:"forced_outcome,type:jsonb"`
}

// InsertExecution records a new execution.
func (tx *Tx) InsertExecution(ctx context.Context, e *ExecutionRow) error {
	_, err := tx.bun.NewInsert().Model(e).Exec(ctx)
	return err
}

// LockExecution reads an execution for update.
func (tx *Tx) LockExecution(ctx context.Context, id uuid.UUID) (*ExecutionRow, bool, error) {
	e := new(ExecutionRow)
	err := tx.bun.NewSelect().Model(e).Where("e.id = ?", id).For("UPDATE").Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return e, err == nil, err
}

// SaveExecution writes an execution back.
func (tx *Tx) SaveExecution(ctx context.Context, e *ExecutionRow) error {
	_, err := tx.bun.NewUpdate().Model(e).WherePK().Exec(ctx)
	return err
}

// ConnectorStats counts finished executions of the last window per connector, for health
// details: total and failed (errors that are not the user's doing).
func (d *DB) ConnectorStats(ctx context.Context, since time.Time) (map[int][2]int, error) {
	rows, err := d.pg.Query(ctx, `SELECT connector_id, count(*),
		count(*) FILTER (WHERE status IN ('UNEXPECTED_ERROR','SITE_NOT_AVAILABLE','CONNECTION_ERROR','ERROR'))
		FROM executions WHERE finished_at >= $1 GROUP BY connector_id`, since)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Total, Failed int }])
	if err != nil {
		return nil, err
	}
	out := make(map[int][2]int, len(list))
	for _, c := range list {
		out[c.ID] = [2]int{c.Total, c.Failed}
	}
	return out, nil
}

// Event is one row of the outbox.
type Event struct {
	bun.BaseModel `bun:"table:events,alias:ev"`
	ID            uuid.UUID      `bun:"id,pk,type:uuid"`
	ClientID      uuid.UUID      `bun:"client_id,type:uuid"`
	Event         string         `bun:"event"`
	ItemID        *uuid.UUID     `bun:"item_id,type:uuid"`
	TargetURL     *string        `bun:"target_url"`
	Payload       map[string]any `bun:"payload,type:jsonb"`
	CreatedAt     time.Time      `bun:"created_at"`
	// Control marks an event fired on demand by the sandbox control surface.
	Control bool `bun:"control"`
}

// InsertEvent writes an event in the transaction of the change that caused it.
func (tx *Tx) InsertEvent(ctx context.Context, e *Event) error {
	if e.ID == uuid.Nil {
		e.ID = model.NewID() // time-ordered: events of one instant list in the order they were written
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = model.Now(ctx) // a test clock's time for work done on one
	}
	e.Payload["eventId"] = e.ID.String()
	e.Payload["event"] = e.Event
	// The official client still reads the deprecated id: the entity the event is about.
	if _, ok := e.Payload["id"]; !ok {
		if item, ok := e.Payload["itemId"]; ok {
			e.Payload["id"] = item
		}
	}
	if _, err := tx.bun.NewInsert().Model(e).Exec(ctx); err != nil {
		return err
	}
	if err := tx.pinReads(ctx, e.ClientID); err != nil {
		return err
	}
	if tx.onEvent != nil {
		return tx.onEvent(ctx, tx, e)
	}
	return nil
}

// Events lists an item's recorded events, oldest first.
func (d *DB) Events(ctx context.Context, clientID uuid.UUID, itemID *uuid.UUID) ([]*Event, error) {
	var list []*Event
	q := d.bun.NewSelect().Model(&list).Where("ev.client_id = ?", clientID)
	if itemID != nil {
		q = q.Where("ev.item_id = ?", *itemID)
	}
	err := q.OrderExpr("ev.created_at, ev.id").Limit(10000).Scan(ctx)
	return list, err
}

// ClientSettings are the per-client switches of items (migration 0002).
type ClientSettings struct {
	ItemsV2Enabled         bool `json:"itemsV2"`
	ItemUpdatesEnabled     bool `json:"itemUpdates"`
	APIItemCreationEnabled bool `json:"apiItemCreation"`
	SandboxUpdatesOnly     bool `json:"sandboxUpdatesOnly"`
	ItemLimit              *int `json:"itemLimit"`
	MinUpdateIntervalHours int  `json:"minUpdateIntervalHours"`
}

// ClientSettings reads clientID's switches.
func (c *conn) ClientSettings(ctx context.Context, clientID uuid.UUID) (*ClientSettings, error) {
	s := new(ClientSettings)
	err := c.pg.QueryRow(ctx, `SELECT items_v2_enabled, item_updates_enabled, api_item_creation_enabled,
		sandbox_updates_only, item_limit, min_update_interval_hours FROM client_applications WHERE id = $1`, clientID).
		Scan(&s.ItemsV2Enabled, &s.ItemUpdatesEnabled, &s.APIItemCreationEnabled, &s.SandboxUpdatesOnly, &s.ItemLimit, &s.MinUpdateIntervalHours)
	return s, err
}

// SetClientSettings changes clientID's switches (operator command and tests).
func (c *conn) SetClientSettings(ctx context.Context, clientID uuid.UUID, s *ClientSettings) error {
	_, err := c.pg.Exec(ctx, `UPDATE client_applications SET items_v2_enabled = $2, item_updates_enabled = $3,
		api_item_creation_enabled = $4, sandbox_updates_only = $5, item_limit = $6, min_update_interval_hours = $7,
		updated_at = now() WHERE id = $1`, clientID, s.ItemsV2Enabled, s.ItemUpdatesEnabled, s.APIItemCreationEnabled,
		s.SandboxUpdatesOnly, s.ItemLimit, s.MinUpdateIntervalHours)
	return err
}

// LastUpdatedAtOrUpdated is when the item last changed state.
func (it *ItemRow) LastUpdatedAtOrUpdated() time.Time { return it.UpdatedAt.Time }

// BindConnectToken records the item a Connect Token created; the token then reaches it.
func (tx *Tx) BindConnectToken(ctx context.Context, tokenID, itemID uuid.UUID) error {
	_, err := tx.bun.ExecContext(ctx, `UPDATE connect_tokens SET item_id = ? WHERE id = ? AND item_id IS NULL`, itemID, tokenID)
	return err
}

// Documents reads the stored documents of one kind for an item, in their order.
func (c *conn) Documents(ctx context.Context, itemID uuid.UUID, kind string) ([]json.RawMessage, error) {
	rows, err := c.pg.Query(ctx, `SELECT data FROM product_documents WHERE item_id = $1 AND kind = $2 ORDER BY sort_key, id`, itemID, kind)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, rowToDoc)
}
