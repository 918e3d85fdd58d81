package db

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// The statements of an execution's final step: what the institution reported replaces what
// is stored, inside the transaction that also records the execution's events and jobs.

// ReplaceAccounts stores an item's accounts as reported and removes the ones no longer
// reported, with their transactions (which have no foreign key). Each row keeps the
// document GET /accounts serves, dates included (migration 0023). An account whose content
// did not change keeps its updatedAt, so readers see which accounts moved, and is not
// written at all unless its stored text is in an older form.
func (tx *Tx) ReplaceAccounts(ctx context.Context, itemID uuid.UUID, list []model.Account, now time.Time) error {
	ids, err := tx.storeAccounts(ctx, itemID, list, now)
	if err != nil {
		return err
	}
	if _, err := tx.pg.Exec(ctx, `DELETE FROM transactions WHERE item_id = $1 AND account_id IN (SELECT id FROM accounts WHERE item_id = $1 AND NOT (id = ANY($2)))`, itemID, ids); err != nil {
		return err
	}
	_, err = tx.pg.Exec(ctx, `DELETE FROM accounts WHERE item_id = $1 AND NOT (id = ANY($2))`, itemID, ids)
	return err
}

// AddAccounts stores the accounts an institution reported as ReplaceAccounts does, and
// keeps the item's other accounts: a statement file speaks only of its own.
func (tx *Tx) AddAccounts(ctx context.Context, itemID uuid.UUID, list []model.Account, now time.Time) error {
	_, err := tx.storeAccounts(ctx, itemID, list, now)
	return err
}

func (tx *Tx) storeAccounts(ctx context.Context, itemID uuid.UUID, list []model.Account, now time.Time) ([]uuid.UUID, error) {
	tx.changingAccounts(itemID)
	rows, err := tx.pg.Query(ctx, `SELECT id, data, created_at, updated_at, balance_at FROM accounts WHERE item_id = $1 FOR UPDATE`, itemID)
	if err != nil {
		return nil, err
	}
	stored, err := pgx.CollectRows(rows, pgx.RowToStructByPos[storedAccount])
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]storedAccount, len(stored))
	for _, s := range stored {
		byID[s.ID] = s
	}
	ids := make([]uuid.UUID, 0, len(list))
	for i := range list {
		a := &list[i]
		ids = append(ids, a.ID)
		old, found := byID[a.ID]
		if found && old.BalanceAt != nil && (a.BalanceAt == nil || a.BalanceAt.Before(*old.BalanceAt)) {
			keepBalance(a, old)
		}
		doc, updated, write, err := accountDocument(a, old, found, now)
		if err != nil {
			return nil, err
		}
		if !write {
			continue
		}
		if _, err := tx.pg.Exec(ctx, `INSERT INTO accounts (id, item_id, type, subtype, data, created_at, updated_at, balance_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
			ON CONFLICT (id) DO UPDATE SET type = EXCLUDED.type, subtype = EXCLUDED.subtype, data = EXCLUDED.data,
				updated_at = EXCLUDED.updated_at, balance_at = EXCLUDED.balance_at`,
			a.ID, itemID, a.Type, a.Subtype, string(doc), updated, a.BalanceAt); err != nil {
			return nil, fmt.Errorf("store account: %w", err)
		}
	}
	return ids, nil
}

// storedAccount is an account's row as ReplaceAccounts finds it.
type storedAccount struct {
	ID               uuid.UUID
	Data             []byte
	Created, Updated time.Time
	BalanceAt        *time.Time
}

// keepBalance gives a reported account the stored balance, which is more recent than the
// one reported (a statement file of an earlier period uploaded after a later one).
func keepBalance(a *model.Account, old storedAccount) {
	var was model.Account
	if json.Unmarshal(old.Data, &was) != nil {
		return
	}
	a.Balance, a.BalanceAt = was.Balance, old.BalanceAt
	if a.BankData != nil && was.BankData != nil {
		a.BankData.ClosingBalance = was.BankData.ClosingBalance
	}
}

// accountDocument gives a reported account its dates and its document: a new one is
// created and updated now; a stored one keeps its createdAt, and its updatedAt unless its
// content changed. Content is compared decoded, so a document stored in another form
// (jsonb's spacing, another key order) with the same content is rewritten without moving
// updatedAt; write is false when the stored text is already exactly the document. updated
// is the row's updated_at, whose instant the document's updatedAt shows to the
// millisecond.
func accountDocument(a *model.Account, old storedAccount, found bool, now time.Time) (doc []byte, updated time.Time, write bool, err error) {
	created, updated := now, now
	if found {
		created, updated = old.Created, old.Updated
	}
	a.CreatedAt, a.UpdatedAt = model.NewTime(created), model.NewTime(updated)
	if doc, err = json.Marshal(a); err != nil {
		return nil, time.Time{}, false, err
	}
	if !found {
		return doc, updated, true, nil
	}
	if bytes.Equal(doc, old.Data) {
		return doc, updated, false, nil
	}
	var was model.Account
	if json.Unmarshal(old.Data, &was) == nil {
		was.CreatedAt, was.UpdatedAt = a.CreatedAt, a.UpdatedAt
		if again, err := json.Marshal(&was); err == nil && bytes.Equal(again, doc) {
			return doc, updated, true, nil // the same content in another form
		}
	}
	a.UpdatedAt = model.NewTime(now)
	doc, err = json.Marshal(a)
	return doc, now, true, err
}

// TransactionChanges is what one execution changed in one account's transactions.
type TransactionChanges struct {
	Created int
	// MinDate is the earliest date among the created transactions.
	MinDate time.Time
	Updated []uuid.UUID
	Deleted []uuid.UUID
}

// Delivery says what a list of transactions covers.
type Delivery struct {
	// Adds: the list adds to what is stored (a statement file): rows absent from it are
	// kept, not deleted.
	Adds bool
	// Since: the list is everything of Accounts dated at or after Since (an incremental
	// read): a stored row of those accounts in that window and absent from the list is
	// deleted, older ones are kept. Nil: the list is a whole history, and only rows at or
	// after its earliest date on each account can have disappeared.
	Since    *time.Time
	Accounts []uuid.UUID
	// Prepare, when set, completes each transaction (its category, its rules) before it is
	// stored. An item's first history runs it row by row as COPY encodes the rows, so the
	// work overlaps PostgreSQL's writing of the rows before; a later history runs it over
	// the list first.
	Prepare func(*model.Transaction)
}

// IngestTransactions stores an item's transactions as reported and says, per account,
// what changed. An item's first history is copied straight into the table; a later one is
// compared with the stored rows of its window by each row's document hash (content_hash)
// in one read, and only what differs is staged with COPY and merged in a few set-based
// statements (mergeTransactions), so a repeated execution reads once and writes nothing.
func (tx *Tx) IngestTransactions(ctx context.Context, itemID uuid.UUID, list []model.Transaction, d Delivery, now time.Time) (map[uuid.UUID]*TransactionChanges, error) {
	changes, err := tx.ingestTransactions(ctx, itemID, list, d, now)
	if err != nil {
		return nil, err
	}
	if err := tx.analyzeGrownPartition(ctx, itemID, changes); err != nil {
		return nil, fmt.Errorf("analyze transactions: %w", err)
	}
	return changes, nil
}

// analyzeGrownPartition analyzes the item's partition of transactions, in the ingest's
// transaction, when the ingest changed as many of its rows as would have autovacuum
// analyze it (50 and a tenth of the rows it last counted; any 50 of a partition never
// counted). Autovacuum would, but only at its next round, up to a minute later, and until
// then the planner sees a freshly loaded partition as nearly empty: a 500-row page of an
// account of 7,300 rows was read whole and sorted (7.5 ms) instead of read in index order
// (0.2 ms). Rows this transaction wrote count as live to its own ANALYZE, and the
// statistics commit with them. SKIP_LOCKED: a partition being analyzed already (by
// autovacuum or another sync) is left to it.
func (tx *Tx) analyzeGrownPartition(ctx context.Context, itemID uuid.UUID, changes map[uuid.UUID]*TransactionChanges) error {
	n := 0
	for _, c := range changes {
		n += c.Created + len(c.Updated) + len(c.Deleted)
	}
	if n < 50 {
		return nil
	}
	var partition string
	var counted float64
	err := tx.pg.QueryRow(ctx, `SELECT c.oid::regclass::text, c.reltuples FROM pg_class c
		WHERE c.oid = (SELECT tableoid FROM transactions WHERE item_id = $1 LIMIT 1)`, itemID).Scan(&partition, &counted)
	if isNoRows(err) {
		return nil // nothing of the item is left
	}
	if err != nil {
		return err
	}
	if float64(n) < 50+max(counted, 0)/10 {
		return nil
	}
	// The name comes from pg_class as regclass text: already quoted where it needs to be.
	_, err = tx.pg.Exec(ctx, `ANALYZE (SKIP_LOCKED) `+partition)
	return err
}

func (tx *Tx) ingestTransactions(ctx context.Context, itemID uuid.UUID, list []model.Transaction, d Delivery, now time.Time) (map[uuid.UUID]*TransactionChanges, error) {
	var existing bool
	if err := tx.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM transactions WHERE item_id = $1 AND account_id IN (SELECT id FROM accounts WHERE item_id = $1))`, itemID).Scan(&existing); err != nil {
		return nil, err
	}
	if !existing {
		return tx.copyNewTransactions(ctx, itemID, list, d.Prepare, now)
	}
	if d.Prepare != nil {
		for i := range list {
			d.Prepare(&list[i])
		}
	}
	return tx.mergeTransactions(ctx, itemID, list, d, now)
}

// copyNewTransactions copies an item's first history into the table: every row is new, so
// the staging and merge steps would only cost time. prepare (if any) runs on each row in
// COPY's encoding goroutine, on one core while PostgreSQL takes the rows already sent on
// the other; a failure anywhere fails the COPY, and with it the whole transaction.
//
// Rows go in the order of the account indexes, (account_id, date, id): each index that
// leads with the account then grows at one end per account instead of at random places,
// which PostgreSQL writes faster (its B-tree inserts at the right end without a search,
// and splits pages full). The caller's list keeps its order.
func (tx *Tx) copyNewTransactions(ctx context.Context, itemID uuid.UUID, list []model.Transaction, prepare func(*model.Transaction), now time.Time) (map[uuid.UUID]*TransactionChanges, error) {
	src, encErr := preparedRows(list, accountOrder(list), prepare, &now, itemID, now, now)
	if _, err := tx.pg.CopyFrom(ctx, pgx.Identifier{"transactions"},
		append([]string{"item_id", "created_at", "updated_at"}, transactionColumns...), src); err != nil {
		if *encErr != nil {
			return nil, *encErr
		}
		return nil, fmt.Errorf("copy transactions: %w", err)
	}
	changes := map[uuid.UUID]*TransactionChanges{}
	for i := range list {
		t := &list[i]
		c, ok := changes[t.AccountID]
		if !ok {
			c = &TransactionChanges{MinDate: t.Date.Time}
			changes[t.AccountID] = c
		}
		c.Created++
		if t.Date.Before(c.MinDate) {
			c.MinDate = t.Date.Time
		}
	}
	return changes, nil
}

// transactionColumns are the columns transactionRows fills, after the extra ones.
var transactionColumns = []string{"id", "account_id", "date", "status", "amount", "bill_id", "type", "category_id",
	"auto_category_id", "category_rule_id", "match_text", "content_hash", "data"}

// unstamped is how a document without timestamps ends (CreatedAt and UpdatedAt are the
// last fields of model.Transaction); a document's content hash is of what comes before.
var unstamped = stampTail(model.Time{})

func stampTail(t model.Time) []byte {
	ts, _ := t.MarshalJSON()
	return []byte(`,"createdAt":` + string(ts) + `,"updatedAt":` + string(ts) + `}`)
}

// contentHash is the hash of a document encoded without timestamps.
func contentHash(doc []byte) int64 {
	return int64(xxhash.Sum64(bytes.TrimSuffix(doc, unstamped)))
}

// transactionRows streams list as COPY rows; extra columns come first. With stamp the
// documents carry it as createdAt and updatedAt (rows written as they are); without, no
// timestamps (staged rows, compared with stored ones before they are stamped). Rows are
// encoded as COPY asks for them, so a million-row history is never held twice.
func transactionRows(list []model.Transaction, stamp *time.Time, extra ...any) (pgx.CopyFromSource, *error) {
	return preparedRows(list, nil, nil, stamp, extra...)
}

// accountOrder gives the positions of list in (account_id, date, id) order. It sorts
// compact keys (the UUIDs as big-endian integers, which order as their bytes do), not the
// documents, so comparisons stay within a few cache lines.
func accountOrder(list []model.Transaction) []int {
	type key struct {
		a0, a1, date, i0, i1 uint64
		at                   int
	}
	keys := make([]key, len(list))
	for i := range list {
		t := &list[i]
		keys[i] = key{a0: binary.BigEndian.Uint64(t.AccountID[:8]), a1: binary.BigEndian.Uint64(t.AccountID[8:]),
			date: uint64(t.Date.UnixNano()) ^ 1<<63, i0: binary.BigEndian.Uint64(t.ID[:8]), i1: binary.BigEndian.Uint64(t.ID[8:]), at: i}
	}
	byDay := func(x, y key) int {
		switch {
		case x.a0 != y.a0:
			return cmp.Compare(x.a0, y.a0)
		case x.a1 != y.a1:
			return cmp.Compare(x.a1, y.a1)
		}
		return cmp.Compare(x.date, y.date)
	}
	byID := func(x, y key) int {
		if x.i0 != y.i0 {
			return cmp.Compare(x.i0, y.i0)
		}
		return cmp.Compare(x.i1, y.i1)
	}
	// Institutions usually deliver a history by account and date already (the sandbox
	// does): then only each day's few rows are sorted by id, not the whole list.
	if slices.IsSortedFunc(keys, byDay) {
		for i := 0; i < len(keys); {
			j := i + 1
			for j < len(keys) && byDay(keys[i], keys[j]) == 0 {
				j++
			}
			slices.SortFunc(keys[i:j], byID)
			i = j
		}
	} else {
		slices.SortFunc(keys, func(x, y key) int {
			if c := byDay(x, y); c != 0 {
				return c
			}
			return byID(x, y)
		})
	}
	order := make([]int, len(keys))
	for i, k := range keys {
		order[i] = k.at
	}
	return order
}

// preparedRows is transactionRows that takes the rows in order (the list's own when nil)
// and first completes each row with prepare (if any), just before encoding it.
//
// The row's values and its document's bytes are reused from one row to the next: pgx
// encodes a row's values into its send buffer (buildCopyBuf) before it asks for the next
// row, and the document is sent as []byte, which pgx copies as JSON text. A first history
// thus leaves no per-row document or value slice behind for the collector, whose marking
// of the live list otherwise grows with every cycle that garbage starts.
func preparedRows(list []model.Transaction, order []int, prepare func(*model.Transaction), stamp *time.Time, extra ...any) (pgx.CopyFromSource, *error) {
	i := 0
	var stamped []byte
	if stamp != nil {
		stamped = stampTail(model.NewTime(*stamp))
	}
	var encErr error
	var data []byte
	row := make([]any, len(extra), len(extra)+len(transactionColumns))
	copy(row, extra)
	return pgx.CopyFromFunc(func() ([]any, error) {
		if i >= len(list) {
			return nil, nil
		}
		t := &list[i]
		if order != nil {
			t = &list[order[i]]
		}
		i++
		if prepare != nil {
			prepare(t)
		}
		t.CreatedAt, t.UpdatedAt = model.Time{}, model.Time{}
		var err error
		if data, err = t.AppendJSON(data[:0]); err != nil {
			encErr = err
			return nil, err
		}
		hash := contentHash(data)
		if stamp != nil {
			// The stamped tail has the unstamped one's length: written over it, the document
			// is encoded once for both its hash and its text.
			if !bytes.HasSuffix(data, unstamped) || len(stamped) != len(unstamped) {
				encErr = fmt.Errorf("transaction %s: document does not end with its timestamps", t.ID)
				return nil, encErr
			}
			copy(data[len(data)-len(unstamped):], stamped)
			t.CreatedAt, t.UpdatedAt = model.NewTime(*stamp), model.NewTime(*stamp)
		}
		var bill *uuid.UUID
		if t.CreditCardMetadata != nil && t.CreditCardMetadata.BillID != nil {
			if id, err := uuid.Parse(*t.CreditCardMetadata.BillID); err == nil {
				bill = &id
			}
		}
		var ruleID *uuid.UUID
		if t.CategoryOrigin != nil {
			ruleID = t.CategoryOrigin.RuleID
		}
		row = append(row[:len(extra)], t.ID, t.AccountID, t.Date.Time, t.Status, amountValue(t.Amount), bill, t.Type, t.CategoryID,
			t.AutoCategoryID, ruleID, model.FoldText(t.Description), hash, data)
		return row, nil
	}), &encErr
}

// Document is one product document (investment, loan, identity, bill, …) of an item.
type Document struct {
	ID uuid.UUID
	// Owner is the account or investment the document belongs to, if any.
	Owner *uuid.UUID
	// Sort orders an item's documents of one kind (lists read them in this order).
	Sort string
	// Data is encoded as JSON.
	Data any
}

// ReplaceDocuments makes an item's documents of one kind those of list, in one round trip:
// the ones no longer listed are deleted, new ones inserted, and a stored one rewritten only
// when its content changed, so an unchanged sync writes none and each document keeps its
// createdAt, and its updatedAt until it changes.
func (tx *Tx) ReplaceDocuments(ctx context.Context, itemID uuid.UUID, kind string, list []Document, now time.Time) error {
	ids := make([]uuid.UUID, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	batch := &pgx.Batch{}
	batch.Queue(`DELETE FROM product_documents WHERE item_id = $1 AND kind = $2 AND NOT (id = ANY($3))`, itemID, kind, ids)
	for _, d := range list {
		data, err := json.Marshal(d.Data)
		if err != nil {
			return err
		}
		batch.Queue(`INSERT INTO product_documents AS p (id, kind, item_id, owner_id, sort_key, data, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
			ON CONFLICT (kind, id) DO UPDATE SET owner_id = EXCLUDED.owner_id, sort_key = EXCLUDED.sort_key, data = EXCLUDED.data,
				updated_at = EXCLUDED.updated_at
			WHERE p.item_id = EXCLUDED.item_id
				AND (p.owner_id, p.sort_key, p.data) IS DISTINCT FROM (EXCLUDED.owner_id, EXCLUDED.sort_key, EXCLUDED.data)`,
			d.ID, kind, itemID, d.Owner, d.Sort, data, now)
	}
	return tx.pg.SendBatch(ctx, batch).Close()
}
