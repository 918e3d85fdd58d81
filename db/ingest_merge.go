package db

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// How a later history of an item is merged with what is stored (IngestTransactions).

// changedRow is a transaction an execution updated or deleted, and its account.
type changedRow struct {
	ID      uuid.UUID
	Account uuid.UUID
}

// mergeTransactions compares the history with what is stored in one pass and writes only
// the difference: the stored rows of the delivery's window are read once (id, account,
// date, content hash: one partition, one index range), the rows whose hash matches are
// left alone, the others are staged and merged, and the stored rows gone from the window
// are deleted by id. An unchanged history costs that read and nothing else: no staging,
// no write, no event.
func (tx *Tx) mergeTransactions(ctx context.Context, itemID uuid.UUID, list []model.Transaction, d Delivery, now time.Time) (map[uuid.UUID]*TransactionChanges, error) {
	staged, gone, err := tx.compareStored(ctx, itemID, list, d)
	if err != nil {
		return nil, err
	}
	changes := map[uuid.UUID]*TransactionChanges{}
	if len(staged) > 0 {
		if err := tx.stageAndMerge(ctx, itemID, staged, now, changes); err != nil {
			return nil, err
		}
	}
	if len(gone) == 0 {
		return changes, nil
	}
	rows, err := tx.pg.Query(ctx, `DELETE FROM transactions WHERE item_id = $1 AND id = ANY($2) RETURNING id, account_id`, itemID, gone)
	if err != nil {
		return nil, err
	}
	deleted, err := pgx.CollectRows(rows, pgx.RowToStructByPos[changedRow])
	if err != nil {
		return nil, err
	}
	for _, r := range deleted {
		c := accountChanges(changes, r.Account)
		c.Deleted = append(c.Deleted, r.ID)
	}
	return changes, nil
}

// accountChanges is account's entry in changes, added empty when it has none yet.
func accountChanges(changes map[uuid.UUID]*TransactionChanges, account uuid.UUID) *TransactionChanges {
	c, ok := changes[account]
	if !ok {
		c = &TransactionChanges{}
		changes[account] = c
	}
	return c
}

// compareStored reads the stored rows the delivery speaks for and says which rows of list
// must be merged (new ones, ones whose content hash differs, and any the read did not
// meet, such as a row dated before an incremental window) and which stored rows are gone.
// The window is the one the staged merge used: with Since, the named accounts' rows dated
// at or after it; for a whole history, each account's rows from its earliest listed date;
// for a statement file (Adds), nothing is gone and only listed ids are compared.
func (tx *Tx) compareStored(ctx context.Context, itemID uuid.UUID, list []model.Transaction, d Delivery) (staged []model.Transaction, gone []uuid.UUID, err error) {
	type listed struct {
		at   int
		hash int64
		same bool
	}
	byID := make(map[uuid.UUID]*listed, len(list))
	marks := make([]listed, len(list))
	from := map[uuid.UUID]time.Time{} // a whole history's window per account
	ids := make([]uuid.UUID, 0, len(list))
	var doc []byte // one buffer: only each document's hash is kept
	for i := range list {
		t := &list[i]
		t.CreatedAt, t.UpdatedAt = model.Time{}, model.Time{}
		if doc, err = t.AppendJSON(doc[:0]); err != nil {
			return nil, nil, err
		}
		marks[i] = listed{at: i, hash: contentHash(doc)}
		byID[t.ID] = &marks[i]
		ids = append(ids, t.ID)
		if m, ok := from[t.AccountID]; !ok || t.Date.Before(m) {
			from[t.AccountID] = t.Date.Time
		}
	}
	var rows pgx.Rows
	switch {
	case d.Adds:
		rows, err = tx.pg.Query(ctx, `SELECT id, account_id, date, content_hash FROM transactions
			WHERE item_id = $1 AND id = ANY($2)`, itemID, ids)
	case d.Since != nil:
		rows, err = tx.pg.Query(ctx, `SELECT id, account_id, date, content_hash FROM transactions
			WHERE item_id = $1 AND account_id = ANY($2) AND date >= $3`, itemID, d.Accounts, *d.Since)
	default:
		accounts := make([]uuid.UUID, 0, len(from))
		for a := range from {
			accounts = append(accounts, a)
		}
		rows, err = tx.pg.Query(ctx, `SELECT id, account_id, date, content_hash FROM transactions
			WHERE item_id = $1 AND account_id = ANY($2)`, itemID, accounts)
	}
	if err != nil {
		return nil, nil, err
	}
	var id, account uuid.UUID
	var date time.Time
	var hash *int64
	_, err = pgx.ForEachRow(rows, []any{&id, &account, &date, &hash}, func() error {
		if m, ok := byID[id]; ok {
			m.same = hash != nil && *hash == m.hash
			return nil
		}
		switch {
		case d.Adds:
		case d.Since != nil:
			gone = append(gone, id)
		default:
			if m, ok := from[account]; ok && !date.Before(m) {
				gone = append(gone, id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for i := range marks {
		if !marks[i].same {
			staged = append(staged, list[marks[i].at])
		}
	}
	return staged, gone, nil
}

// stageAndMerge merges the rows compareStored found new or changed: staged with COPY, then
// new rows inserted and changed ones rewritten in set-based statements.
func (tx *Tx) stageAndMerge(ctx context.Context, itemID uuid.UUID, list []model.Transaction, now time.Time, changes map[uuid.UUID]*TransactionChanges) error {
	if _, err := tx.pg.Exec(ctx, `CREATE TEMP TABLE tx_stage (
		id uuid, account_id uuid, date timestamptz, status text, amount numeric, bill_id uuid, type text, category_id text,
		auto_category_id text, category_rule_id uuid, match_text text, content_hash bigint, data jsonb) ON COMMIT DROP`); err != nil {
		return err
	}
	src, encErr := transactionRows(list, nil)
	if _, err := tx.pg.CopyFrom(ctx, pgx.Identifier{"tx_stage"}, transactionColumns, src); err != nil {
		if *encErr != nil {
			return *encErr
		}
		return fmt.Errorf("stage transactions: %w", err)
	}
	// A temporary table has no statistics until analyzed: without them the planner guesses
	// its size and may scan the item's whole history to join a window of rows.
	if _, err := tx.pg.Exec(ctx, `ANALYZE tx_stage`); err != nil {
		return err
	}
	stamp := model.NewTime(now).Format(model.TimeLayout)
	rows, err := tx.pg.Query(ctx, `WITH ins AS (
			INSERT INTO transactions (id, item_id, account_id, date, status, amount, bill_id, type, category_id,
				auto_category_id, category_rule_id, match_text, content_hash, data, created_at, updated_at)
			SELECT s.id, $1, s.account_id, s.date, s.status, s.amount, s.bill_id, s.type, s.category_id,
				s.auto_category_id, s.category_rule_id, s.match_text, s.content_hash,
				(s.data || jsonb_build_object('createdAt', $3::text, 'updatedAt', $3::text))::text, $2, $2 FROM tx_stage s
			ON CONFLICT (id, item_id) DO NOTHING
			RETURNING id, account_id, date)
		SELECT account_id, count(*), min(date), array_agg(id) FROM ins GROUP BY account_id`, itemID, now, stamp)
	if err != nil {
		return err
	}
	created, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
		Account uuid.UUID
		N       int
		Min     time.Time
		IDs     []uuid.UUID
	}])
	if err != nil {
		return err
	}
	// Only the staged rows the insert did not take can be stored already: the rewrites
	// below look up just those by key. Joined with the whole stage instead, the planner
	// scanned the item's whole partition to find a few changed rows among many new ones
	// (two scans, most of a re-sync that adds 1% of a large history).
	inserted := make(map[uuid.UUID]bool, len(list))
	for _, r := range created {
		for _, id := range r.IDs {
			inserted[id] = true
		}
	}
	var stored []uuid.UUID
	for i := range list {
		if !inserted[list[i].ID] {
			stored = append(stored, list[i].ID)
		}
	}
	for _, r := range created {
		c := accountChanges(changes, r.Account)
		c.Created, c.MinDate = r.N, r.Min
	}
	collect := func(sql string, into func(*TransactionChanges, uuid.UUID), args ...any) error {
		rows, err := tx.pg.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[changedRow])
		for _, r := range list {
			into(accountChanges(changes, r.Account), r.ID)
		}
		return err
	}
	if len(stored) == 0 {
		return nil
	}
	// A row changed when the sync's document differs from the stored one without what the
	// row lays over it (timestamps, and the category and its origin when the client chose
	// one). What rules match and give back (match_text, auto_category_id) follows the sync.
	// Equal hashes settle it without reading the document; only the others are compared.
	if err := collect(`WITH cur AS (
			SELECT t.id, t.data::jsonb AS j, t.user_category_id IS NOT NULL AS chosen
			FROM transactions t JOIN tx_stage s ON s.id = t.id WHERE t.item_id = $1 AND t.id = ANY($4) AND t.created_at < $2
				AND t.content_hash IS DISTINCT FROM s.content_hash),
		changed AS (
			SELECT c.id, c.j, c.chosen FROM cur c JOIN tx_stage s ON s.id = c.id
			WHERE c.j - 'createdAt' - 'updatedAt' - 'categoryId' - 'category' - 'categoryOrigin' IS DISTINCT FROM s.data - 'createdAt' - 'updatedAt' - 'categoryId' - 'category' - 'categoryOrigin'
				OR (NOT c.chosen AND (c.j->'categoryId', c.j->'category', c.j->'categoryOrigin') IS DISTINCT FROM (s.data->'categoryId', s.data->'category', s.data->'categoryOrigin')))
		UPDATE transactions t SET date = s.date, status = s.status, amount = s.amount, bill_id = s.bill_id, type = s.type,
			category_id = CASE WHEN c.chosen THEN t.category_id ELSE s.category_id END,
			category_rule_id = CASE WHEN c.chosen THEN NULL ELSE s.category_rule_id END,
			auto_category_id = s.auto_category_id, match_text = s.match_text,
			data = ((s.data - 'categoryOrigin') || jsonb_build_object('createdAt', c.j->'createdAt', 'updatedAt', $3::text)
				|| CASE WHEN c.chosen THEN jsonb_build_object('categoryId', c.j->'categoryId', 'category', c.j->'category', 'categoryOrigin', c.j->'categoryOrigin')
					WHEN s.data ? 'categoryOrigin' THEN jsonb_build_object('categoryOrigin', s.data->'categoryOrigin') ELSE '{}'::jsonb END)::text,
			content_hash = s.content_hash, updated_at = $2
		FROM changed c JOIN tx_stage s ON s.id = c.id WHERE t.id = c.id AND t.item_id = $1
		RETURNING t.id, t.account_id`, func(c *TransactionChanges, id uuid.UUID) { c.Updated = append(c.Updated, id) }, itemID, now, stamp, stored); err != nil {
		return err
	}
	// The rows whose hash differed but whose content did not (a document a chosen category
	// or a rule laid over, or one stored before hashes) take the sync's hash, so the next
	// sync settles them by hash too. Their document and updatedAt stay.
	if _, err := tx.pg.Exec(ctx, `UPDATE transactions t SET content_hash = s.content_hash FROM tx_stage s
		WHERE t.id = s.id AND t.item_id = $1 AND t.id = ANY($2) AND t.content_hash IS DISTINCT FROM s.content_hash`, itemID, stored); err != nil {
		return err
	}
	return nil
}
