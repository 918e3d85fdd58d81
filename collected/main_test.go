package collected_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/collected"
	"ponte/model"
	"ponte/testsupport"
)

// The read rules against a real database: these tests call collected.Engine directly, as
// graph's resolvers do, over items the sandbox connector collected. The HTTP surface is
// tested in rest/.

func TestMain(m *testing.M) { testsupport.Main(m) }

// world is a service with two applications, each with one synced item, and the callers
// the reads are made as.
type world struct {
	env *testsupport.Env
	eng *collected.Engine
	// a and b are the applications' API keys; token is a Connect Token of a's item.
	a, b, token context.Context
	none        context.Context // no credential
	item, other uuid.UUID       // a's item, b's item
	// accounts are a's accounts by subtype (CHECKING_ACCOUNT, SAVINGS_ACCOUNT, CREDIT_CARD).
	accounts map[string]uuid.UUID
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	env := testsupport.New(t)
	w := &world{env: env, eng: env.Resolver.Collected, none: ctx, accounts: map[string]uuid.UUID{}}
	var pa *auth.Principal
	w.a, pa, w.item = w.application(t, "reads-a", "user-ok")
	w.b, _, w.other = w.application(t, "reads-b", "user-ok-perf-1")
	tok, err := env.Auth.IssueConnectToken(ctx, pa, &w.item, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pt, err := env.Auth.Verify(ctx, tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	w.token = auth.WithResult(ctx, pt, nil)
	page, err := w.eng.Accounts(w.a, w.item, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, acc := range accountsOf(t, page) {
		w.accounts[acc.Subtype] = acc.ID
	}
	for _, s := range []string{"CHECKING_ACCOUNT", "SAVINGS_ACCOUNT", "CREDIT_CARD"} {
		if w.accounts[s] == uuid.Nil {
			t.Fatalf("the sandbox item has no %s: %v", s, w.accounts)
		}
	}
	return w
}

// application creates an application with an item synced to the end.
func (w *world) application(t *testing.T, name, user string) (context.Context, *auth.Principal, uuid.UUID) {
	t.Helper()
	key := w.env.NewClient(t, name).APIKey
	var it model.Item
	w.env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": user, "password": "password-ok"}}).
		Want(200).JSON(&it)
	if got, _ := w.env.WaitItem(t, key, it.ID.String(), testsupport.Settled); got.Status != model.ItemUpdated {
		t.Fatalf("item of %s ended %s", name, got.Status)
	}
	p, err := w.env.Auth.Verify(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return auth.WithResult(context.Background(), p, nil), p, it.ID
}

func TestReads(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	t.Run("accounts", func(t *testing.T) { accountReads(t, w) })
	t.Run("transactions", func(t *testing.T) { transactionReads(t, w) })
	t.Run("legacy transactions", func(t *testing.T) { legacyReads(t, w) })
	t.Run("categories of transactions", func(t *testing.T) { categoryCorrections(t, w) })
	t.Run("products", func(t *testing.T) { productReads(t, w) })
	t.Run("product connections", func(t *testing.T) { documentPages(t, w) })
	t.Run("spending", func(t *testing.T) { spendingReads(t, w) })
	t.Run("catalogue", func(t *testing.T) { catalogueReads(t, w) })
}

// wantCode fails unless err is the documented error code.
func wantCode(t *testing.T, what string, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
}

// fields decodes a document.
func fields(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("document %s: %v", doc, err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// accountsOf decodes a page of account documents.
func accountsOf(t *testing.T, page *model.AccountPage) []*model.Account {
	t.Helper()
	out := make([]*model.Account, len(page.Documents))
	for i, d := range page.Documents {
		out[i] = new(model.Account)
		if err := json.Unmarshal(d, out[i]); err != nil {
			t.Fatalf("account document %s: %v", d, err)
		}
	}
	return out
}
