package db_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"pgregory.net/rapid"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// listsRig is a store with one client's item whose accounts the tests change.
type listsRig struct {
	t      testing.TB
	store  *db.DB
	client uuid.UUID
	item   uuid.UUID
	ctx    context.Context
}

func newListsRig(t testing.TB) *listsRig {
	t.Helper()
	store, client := storeWithClient(t, "lists")
	r := &listsRig{t: t, store: store, client: client, ctx: context.Background()}
	r.item = r.newItem()
	return r
}

// newItem stores a new item of the rig's client.
func (r *listsRig) newItem() uuid.UUID {
	now := model.NewTime(time.Now())
	it := &db.ItemRow{Item: model.Item{ID: uuid.New(), ClientID: r.client, Status: model.ItemUpdated,
		ExecutionStatus: model.ExecSuccess, Products: []model.Product{"ACCOUNTS"}, CreatedAt: now, UpdatedAt: now}}
	if err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error { return tx.InsertItem(ctx, it) }); err != nil {
		r.t.Fatal(err)
	}
	return it.ID
}

// settle waits until the listener has taken the notices of every change so far, so that a
// list read after it stays kept.
func (r *listsRig) settle() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, 10*time.Second)
	defer cancel()
	if err := r.store.AwaitAccountNotices(ctx); err != nil {
		r.t.Fatalf("the listener did not take its notices: %v", err)
	}
}

// replace stores accounts named names (the first BANK, the rest CREDIT, which lists put
// first) as a sync's last step does.
func (r *listsRig) replace(names ...string) {
	r.t.Helper()
	if err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
		return tx.ReplaceAccounts(ctx, r.item, accountsNamed(r.item, names), time.Now())
	}); err != nil {
		r.t.Fatal(err)
	}
}

func accountsNamed(item uuid.UUID, names []string) []model.Account {
	list := make([]model.Account, len(names))
	for i, n := range names {
		typ, sub := "CREDIT", "CREDIT_CARD"
		if i == 0 {
			typ, sub = "BANK", "CHECKING_ACCOUNT"
		}
		list[i] = model.Account{ID: uuid.NewSHA1(item, []byte{byte(i)}), ItemID: item, Type: typ, Subtype: sub, Name: n, CurrencyCode: "BRL"}
	}
	return list
}

// names reads the item's list through the cache (typ "" for every type).
func (r *listsRig) names(typ string) string {
	r.t.Helper()
	return r.namesRead(r.store.AccountDocs, typ)
}

// stored reads the same list from the database, past the cache.
func (r *listsRig) stored(typ string) string {
	r.t.Helper()
	return r.namesRead(r.store.ReadAccountDocs, typ)
}

// namesRead reads the item's list with read and returns its accounts' names in order.
func (r *listsRig) namesRead(read func(context.Context, uuid.UUID, *string) ([]model.JSONDocument, error), typ string) string {
	r.t.Helper()
	var filter *string
	if typ != "" {
		filter = &typ
	}
	docs, err := read(r.ctx, r.item, filter)
	if err != nil {
		r.t.Fatal(err)
	}
	var b bytes.Buffer
	for _, d := range docs {
		var a model.Account
		if err := json.Unmarshal(d, &a); err != nil {
			r.t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s ", a.Name)
	}
	return b.String()
}

// behindTheCache renames the item's accounts with its triggers off, as nothing but a test
// can: no notice is sent, so a list read after it shows whether the cache answered.
func (r *listsRig) behindTheCache(name string) {
	r.t.Helper()
	conn, err := r.store.Pool.Acquire(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(r.ctx, `SET session_replication_role = replica`); err != nil {
		r.t.Fatal(err)
	}
	defer conn.Exec(r.ctx, `RESET session_replication_role`)
	if _, err := conn.Exec(r.ctx, `UPDATE accounts SET data = jsonb_set(data::jsonb, '{name}', to_jsonb($2::text))::text WHERE item_id = $1`, r.item, name); err != nil {
		r.t.Fatal(err)
	}
}

// elsewhere renames the item's accounts as another process's change would: the trigger
// announces it.
func (r *listsRig) elsewhere(name string) {
	r.t.Helper()
	if _, err := r.store.Pool.Exec(r.ctx, `UPDATE accounts SET data = jsonb_set(data::jsonb, '{name}', to_jsonb($2::text))::text WHERE item_id = $1`, r.item, name); err != nil {
		r.t.Fatal(err)
	}
}

// listen runs the store's listener until t ends or stop returns, which waits for it.
func listen(t testing.TB, store *db.DB) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		store.ListenAccounts(ctx, nil)
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	testsupport.Eventually(t, "the account listener", 10*time.Second, store.AccountListsLive)
	return stop
}

// TestAccountListsCache: a list is read from the database once and then answered from
// memory, until a change: another process's when its notice comes, this process's as its
// transaction ends. Without the listener nothing is kept.
func TestAccountListsCache(t *testing.T) {
	t.Parallel()
	r := newListsRig(t)
	r.replace("a", "b")

	// No listener: every read goes to the database.
	if r.names("") != "b a " {
		t.Fatalf("list %q", r.names(""))
	}
	r.behindTheCache("x")
	if got := r.names(""); got != "x x " {
		t.Fatalf("without a listener the list was %q, not the stored one", got)
	}

	stop := listen(t, r.store)
	r.replace("a", "b")
	r.settle()
	if r.names("") != "b a " || r.names("CREDIT") != "b " {
		t.Fatalf("lists %q, %q", r.names(""), r.names("CREDIT"))
	}
	r.behindTheCache("x")
	if got := r.names(""); got != "b a " {
		t.Fatalf("a kept list was read again from the database: %q", got)
	}

	// Another process's change: both types' lists go when its notice comes.
	r.elsewhere("y")
	testsupport.Eventually(t, "the change's notice", 10*time.Second, func() bool { return r.names("") == "y y " })
	testsupport.Eventually(t, "the change's notice", 10*time.Second, func() bool { return r.names("CREDIT") == "y " })

	// The listener's connection ends: a list kept before is not served after it, and the
	// listener comes back.
	if _, err := r.store.Pool.Exec(r.ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
		db.AccountListenerName); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the listener's loss", 10*time.Second, func() bool {
		r.behindTheCache(fmt.Sprint(time.Now().UnixNano()))
		return r.names("") == r.stored("")
	})
	testsupport.Eventually(t, "the listener's return", 10*time.Second, r.store.AccountListsLive)
	r.replace("c", "d")
	r.settle()
	_ = r.names("")
	r.behindTheCache("z")
	if got := r.names(""); got != "d c " {
		t.Fatalf("after the listener came back the list was %q", got)
	}

	// The item's deletion, here: its list is gone at once.
	if err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error { return tx.DeleteItem(ctx, r.item) }); err != nil {
		t.Fatal(err)
	}
	if got := r.names(""); got != "" {
		t.Fatalf("a deleted item's list was %q", got)
	}

	// The listener stopped: nothing is kept any more.
	r.item = r.newItem()
	r.replace("a", "b")
	r.settle()
	_ = r.names("")
	stop()
	r.behindTheCache("w")
	if got := r.names(""); got != "w w " {
		t.Fatalf("with the listener stopped the list was %q", got)
	}
}

// TestAccountListsOwnChanges: with no listener to tell it, this process's own changes
// still never leave a stale list: not after their commit, not read during them, not after
// a rollback, and not after a client's data is deleted.
func TestAccountListsOwnChanges(t *testing.T) {
	t.Parallel()
	r := newListsRig(t)
	r.store.TrustAccountLists()
	r.replace("a", "b")
	_ = r.names("")
	r.replace("c", "d")
	if got := r.names(""); got != "d c " {
		t.Fatalf("after a commit the list was %q", got)
	}

	// Read while the change is open: the old list, and not kept.
	err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.ReplaceAccounts(ctx, r.item, accountsNamed(r.item, []string{"e", "f"}), time.Now()); err != nil {
			return err
		}
		if got := r.names(""); got != "d c " {
			return fmt.Errorf("during the change the list was %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.names(""); got != "f e " {
		t.Fatalf("after the change the list was %q", got)
	}

	// Read between the commit and the release of the item (what runs after a commit, such
	// as a job's completion): the new list, because nothing read during the change was kept.
	var afterCommit string
	err = r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.ReplaceAccounts(ctx, r.item, accountsNamed(r.item, []string{"e", "h"}), time.Now()); err != nil {
			return err
		}
		_ = r.names("")
		tx.AfterCommit(func() { afterCommit = r.names("") })
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if afterCommit != "h e " {
		t.Fatalf("right after the commit the list was %q", afterCommit)
	}
	r.replace("e", "f")

	// A rollback releases the item, and what it read in between is not kept.
	_ = r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.ReplaceAccounts(ctx, r.item, accountsNamed(r.item, []string{"g"}), time.Now()); err != nil {
			return err
		}
		_ = r.names("")
		return fmt.Errorf("roll back")
	})
	if got := r.names(""); got != "f e " {
		t.Fatalf("after a rollback the list was %q", got)
	}
	r.behindTheCache("x")
	if got := r.names(""); got != "f e " {
		t.Fatalf("after a rollback the item was no longer cached: %q", got)
	}

	// An item deleted.
	first := r.item
	r.item = r.newItem()
	r.replace("i")
	_ = r.names("")
	if err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error { return tx.DeleteItem(ctx, r.item) }); err != nil {
		t.Fatal(err)
	}
	if got := r.names(""); got != "" {
		t.Fatalf("a deleted item's list was %q", got)
	}

	// Every item of a client.
	r.item = first
	_ = r.names("")
	if err := r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
		_, err := tx.DeleteClientData(ctx, r.client)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := r.names(""); got != "" {
		t.Fatalf("after the client's data was deleted the list was %q", got)
	}
}

// TestAccountListsNeverStale draws sequences of this process's changes, other processes'
// changes and reads of either list, with a reader running throughout, on a real database
// and listener. After each change of this process the list read is the stored one at
// once; after another's, within the notice's trip.
func TestAccountListsNeverStale(t *testing.T) {
	t.Parallel()
	r := newListsRig(t)
	listen(t, r.store)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // reads racing every change, so lists are put while changes commit
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = r.store.AccountDocs(r.ctx, r.item, nil)
			credit := "CREDIT"
			_, _ = r.store.AccountDocs(r.ctx, r.item, &credit)
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		for range rapid.IntRange(1, 8).Draw(rt, "steps") {
			n++
			name := fmt.Sprint("n", n)
			switch rapid.IntRange(0, 3).Draw(rt, "step") {
			case 0: // here
				names := []string{name}
				for range rapid.IntRange(0, 3).Draw(rt, "more accounts") {
					names = append(names, name)
				}
				r.replace(names...)
			case 1: // elsewhere
				r.elsewhere(name)
				for _, typ := range []string{"", "CREDIT"} {
					testsupport.Eventually(t, "another process's change", 10*time.Second, func() bool { return r.names(typ) == r.stored(typ) })
				}
			case 2: // here, rolled back
				_ = r.store.InTx(r.ctx, func(ctx context.Context, tx *db.Tx) error {
					if err := tx.ReplaceAccounts(ctx, r.item, accountsNamed(r.item, []string{name}), time.Now()); err != nil {
						return err
					}
					return fmt.Errorf("roll back")
				})
			case 3: // just reads
			}
			for _, typ := range []string{"", "CREDIT"} {
				if got, want := r.names(typ), r.stored(typ); got != want {
					rt.Fatalf("list of type %q: %q, stored %q", typ, got, want)
				}
			}
		}
	})
}
