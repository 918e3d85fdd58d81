package db

import (
	"context"
	"log/slog"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// accountListsChannel carries the item whose accounts changed, or '*' for every item
// (migration 0066's trigger, in the changing transaction).
const accountListsChannel = "ponte_accounts_changed"

// accountListenerName marks ListenAccounts' sessions in pg_stat_activity.
const accountListenerName = "ponte-accounts-listener"

// accountListsBudget bounds the documents kept: past it the cache starts again empty. An
// item's list is a few KB, so this holds thousands of items, and a process serving more
// distinct items than that between two changes reads most of them anyway.
const accountListsBudget = 32 << 20

// accountLists keeps items' account lists (GET /accounts' documents) in this process, so
// the API's most frequent read need not reach PostgreSQL: with it the route cost about
// half the CPU of a handler that runs its one statement (docs/performance.md). A list is
// trusted only while ListenAccounts holds a session listening for changes, and only if
// no transaction of this process is changing the item:
//   - This process's changes (Tx.changingAccounts) hold the item out of the cache from
//     their first statement until they have committed or rolled back, then drop it. A read
//     after a change's commit returns in this process is never stale.
//   - Another process's change reaches this one when its notice does, on commit: a list
//     read from here in between (typically under a millisecond, the notice's trip) is the
//     one before the change, as on a read replica.
//
// Only lists read from the primary are kept (a replica's Reader has no cache): a replica
// may replay a change after its notice came, and the list read in between would stay.
type accountLists struct {
	mu   sync.RWMutex
	m    map[uuid.UUID]map[string][]model.JSONDocument // item → type ("" for all) → documents
	size int                                           // listSize of every list in m
	live bool
	// gen counts invalidations: a list read before one must not be kept after it.
	gen uint64
	// writing counts this process's open transactions changing each item's accounts;
	// everything counts those changing every item's.
	writing    map[uuid.UUID]int
	everything int
}

func newAccountLists() *accountLists {
	return &accountLists{m: map[uuid.UUID]map[string][]model.JSONDocument{}, writing: map[uuid.UUID]int{}}
}

// get returns the kept list, and the generation to hand to put after reading the database.
func (c *accountLists) get(item uuid.UUID, typ string) (docs []model.JSONDocument, ok bool, gen uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	docs, ok = c.m[item][typ]
	return docs, ok, c.gen
}

// put keeps a list read from the primary, unless anything was invalidated since get
// returned gen or a transaction of this process is changing the item.
func (c *accountLists) put(item uuid.UUID, typ string, docs []model.JSONDocument, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.live || gen != c.gen || c.writing[item] > 0 || c.everything > 0 {
		return
	}
	n := listSize(docs)
	if c.size+n > accountListsBudget {
		clear(c.m)
		c.size = 0
	}
	byType := c.m[item]
	if byType == nil {
		byType = map[string][]model.JSONDocument{}
		c.m[item] = byType
	}
	// Full capacity: a caller's append must copy rather than write into a kept list.
	byType[typ] = docs[:len(docs):len(docs)]
	c.size += n
}

// listSize is what a kept list counts against accountListsBudget: its documents, and its
// entries' own memory, so that empty lists count too.
func listSize(docs []model.JSONDocument) int {
	n := 256
	for _, d := range docs {
		n += len(d) + 24
	}
	return n
}

// forget drops an item's lists; uuid.Nil drops every item's.
func (c *accountLists) forget(item uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(item)
}

func (c *accountLists) drop(item uuid.UUID) {
	c.gen++
	if item == uuid.Nil {
		clear(c.m)
		c.size = 0
		return
	}
	for _, docs := range c.m[item] {
		c.size -= listSize(docs)
	}
	delete(c.m, item)
}

// setLive starts or stops trusting the cache; either way what it held may be stale.
func (c *accountLists) setLive(live bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(uuid.Nil)
	c.live = live
}

// begin holds an item (uuid.Nil: every item) out of the cache until end.
func (c *accountLists) begin(item uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if item == uuid.Nil {
		c.everything++
	} else {
		c.writing[item]++
	}
	c.drop(item)
}

// end releases what begin held, once the transaction has ended either way, and drops
// what was read in between.
func (c *accountLists) end(items []uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, item := range items {
		if item == uuid.Nil {
			c.everything--
		} else if c.writing[item]--; c.writing[item] == 0 {
			delete(c.writing, item)
		}
		c.drop(item)
	}
}

// changingAccounts tells the account list cache that this transaction changes item's
// accounts (uuid.Nil: any item's), before its first statement that does: every statement
// that writes the accounts table calls it.
func (tx *Tx) changingAccounts(item uuid.UUID) {
	if tx.store == nil || tx.store.lists == nil {
		return
	}
	tx.store.lists.begin(item)
	tx.accountItems = append(tx.accountItems, item)
}

// AccountDocs lists an item's accounts, optionally of one type, in a stable order, as
// their stored documents (readAccountDocs), from this process's cache when it holds them
// (accountLists).
func (d *DB) AccountDocs(ctx context.Context, itemID uuid.UUID, typ *string) ([]model.JSONDocument, error) {
	if d.lists == nil {
		return d.readAccountDocs(ctx, itemID, typ)
	}
	key := ""
	if typ != nil {
		key = *typ
	}
	docs, ok, gen := d.lists.get(itemID, key)
	if ok {
		return docs, nil
	}
	docs, err := d.readAccountDocs(ctx, itemID, typ)
	if err == nil {
		d.lists.put(itemID, key, docs, gen)
	}
	return docs, err
}

// ListenAccounts keeps the account list cache honest until ctx ends: it listens for
// changes of items' accounts (migration 0066) and drops each changed item. While its
// session is down it reconnects with back-off, and the cache is not used. Run it once per
// process; without it every list is read from the database.
func (d *DB) ListenAccounts(ctx context.Context, log *slog.Logger) {
	if d.lists == nil {
		return
	}
	KeepListening(ctx, log, "account change listener", "reading account lists from the database", d.listenAccounts, d.takeAccountChanges)
}

// listenAccounts opens a session outside the pool (a listening session stays busy) that
// listens for changes of accounts.
func (d *DB) listenAccounts(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, d.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `LISTEN `+accountListsChannel+`; SET application_name = '`+accountListenerName+`'`); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}

// takeAccountChanges trusts the cache while conn takes its notices.
func (d *DB) takeAccountChanges(ctx context.Context, conn *pgx.Conn) error {
	d.lists.setLive(true)
	defer func() {
		d.lists.setLive(false)
		_ = conn.Close(context.WithoutCancel(ctx))
	}()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		item, err := uuid.Parse(n.Payload)
		if err != nil {
			item = uuid.Nil // '*', or not ours to read: forget everything
		}
		d.lists.forget(item)
	}
}
