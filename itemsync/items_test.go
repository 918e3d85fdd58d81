package itemsync_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// An item's life: created and synced, read only by its application, updated with what
// the update names, deleted with an event.
func TestItemLifecycle(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := newApp(t, env, "life-a"), newApp(t, env, "life-b")
	it := a.create(t, 0, params("user-ok"))
	done := a.settle(t, it.ID)
	if done.Status != model.ItemUpdated || done.ExecutionStatus != model.ExecSuccess || done.LastUpdatedAt == nil || done.NextAutoSyncAt == nil {
		t.Fatalf("synced item %+v", done)
	}
	if got := a.events(t, it.ID); !slices.Contains(got, "item/login_succeeded") || !slices.Contains(got, "item/created") || !slices.Contains(got, "transactions/created") {
		t.Fatalf("events of the first sync: %v", got)
	}
	_, err := env.Sync.Get(b.ctx, it.ID)
	wantCode(t, "another application's item", err, model.CodeItemNotFound)
	_, err = env.Sync.Update(b.ctx, it.ID, nil)
	wantCode(t, "another application's update", err, model.CodeItemNotFound)
	_, err = env.Sync.Delete(b.ctx, it.ID)
	wantCode(t, "another application's delete", err, model.CodeItemNotFound)

	user, hook := "customer-7", "https://hooks.example.com/items"
	up, err := env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{ClientUserID: &user, WebhookURL: &hook, Products: []model.Product{model.ProductAccounts}})
	if err != nil || up.Status != model.ItemUpdating || *up.ClientUserID != user || *up.WebhookURL != hook || len(up.Products) != 1 {
		t.Fatalf("update: %+v (%v)", up, err)
	}
	again := a.settle(t, it.ID)
	if again.Status != model.ItemUpdated || *again.ClientUserID != user {
		t.Fatalf("after the update: %+v", again)
	}
	if got := a.events(t, it.ID); !slices.Contains(got, "item/updated") {
		t.Fatalf("events after the update: %v", got)
	}
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: params("user-ok-two-checking-accounts")})
	wantCode(t, "credentials of another account", err, model.CodeDifferentAccount)
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Products: []model.Product{model.ProductPaymentData}})
	wantCode(t, "a product the connector lacks", err, model.CodeInvalidParameter)
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{WebhookURL: ptr("http://localhost/x")})
	wantCode(t, "a local webhook", err, model.CodeInvalidParameter)

	gone, err := env.Sync.Delete(a.ctx, it.ID)
	if err != nil || gone.ID != it.ID || gone.Connector == nil {
		t.Fatalf("delete: %+v (%v)", gone, err)
	}
	_, err = env.Sync.Get(a.ctx, it.ID)
	wantCode(t, "a deleted item", err, model.CodeItemNotFound)
	_, err = env.Sync.Delete(a.ctx, it.ID)
	wantCode(t, "a second delete", err, model.CodeItemNotFound)
	if got := a.events(t, it.ID); got[len(got)-1] != "item/deleted" {
		t.Fatalf("events after delete: %v", got)
	}
}

// Lists: GET /v2/items needs its switch; pages follow signed cursors that belong to one
// application and one set of filters.
func TestItemLists(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := newApp(t, env, "lists-a"), newApp(t, env, "lists-b")
	_, err := env.Sync.List(a.ctx, model.ItemFilter{}, nil)
	wantCode(t, "the list while switched off", err, model.CodeItemsV2Disabled)
	a.set(t, "items_v2_enabled = true")
	b.set(t, "items_v2_enabled = true")

	user := "u1"
	var ids []uuid.UUID
	for i, c := range []struct {
		connector int
		user      *string
	}{{0, &user}, {1, nil}, {0, &user}} {
		it, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: c.connector, ClientUserID: c.user,
			Parameters: params([]string{"user-logged", "user-ok", "user-locked"}[i])})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	page, err := env.Sync.List(a.ctx, model.ItemFilter{}, nil)
	if err != nil || len(page.Results) != 3 || page.Next != nil || page.Results[0].ID != ids[2] || page.Results[2].ID != ids[0] {
		t.Fatalf("a's items, newest first: %+v (%v)", page, err)
	}
	if page, err := env.Sync.List(b.ctx, model.ItemFilter{}, nil); err != nil || len(page.Results) != 0 || page.Results == nil {
		t.Fatalf("b's items: %+v (%v)", page, err)
	}
	zero := 0
	byConnector := model.ItemFilter{ConnectorID: &zero}
	first, cursors, err := env.Sync.ListPage(a.ctx, byConnector, "", 1)
	if err != nil || len(first) != 2 || first[0].ID != ids[2] || first[0].Connector.ID != 0 {
		t.Fatalf("first page of one: %v (%v)", first, err)
	}
	rest, _, err := env.Sync.ListPage(a.ctx, byConnector, cursors[0], 1)
	if err != nil || len(rest) != 1 || rest[0].ID != ids[0] {
		t.Fatalf("after the cursor: %v (%v)", rest, err)
	}
	_, _, err = env.Sync.ListPage(a.ctx, model.ItemFilter{ClientUserID: &user}, cursors[0], 1)
	wantCode(t, "a cursor under other filters", err, model.CodeInvalidCursor)
	_, _, err = env.Sync.ListPage(b.ctx, byConnector, cursors[0], 1)
	wantCode(t, "another application's cursor", err, model.CodeInvalidCursor)
	_, err = env.Sync.List(a.ctx, model.ItemFilter{}, ptr("not-a-cursor"))
	wantCode(t, "a made-up cursor", err, model.CodeInvalidCursor)
	for _, c := range []struct {
		f    model.ItemFilter
		want int
	}{{model.ItemFilter{}, 3}, {byConnector, 2}, {model.ItemFilter{ClientUserID: &user}, 2}, {model.ItemFilter{ClientUserID: ptr("")}, 0}} {
		if n, err := env.Sync.CountItems(a.ctx, c.f); err != nil || n != c.want {
			t.Fatalf("count %+v: %d (%v), want %d", c.f, n, err, c.want)
		}
	}
	if n, err := env.Sync.CountItems(b.ctx, model.ItemFilter{}); err != nil || n != 0 {
		t.Fatalf("b counts %d (%v)", n, err)
	}
}

// Every API operation checks its caller in the engine: nothing without a credential,
// and a Connect Token only where section 5 lets it, on its own item.
func TestEveryOperationChecksTheCaller(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "caller")
	own := a.create(t, 0, params("user-locked"))
	other := a.create(t, 0, params("user-logged"))
	a.settle(t, own.ID)
	tok := a.token(t, &own.ID, nil)
	none := context.Background()
	refused := auth.WithResult(context.Background(), nil, model.Fail(model.CodeAPIKeyInvalid, "not valid"))
	ops := []struct {
		name  string
		call  func(ctx context.Context, id uuid.UUID) error
		token bool // within a Connect Token's reach, on its own item
	}{
		{"Create", func(ctx context.Context, _ uuid.UUID) error {
			_, err := env.Sync.Create(ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok")})
			return err
		}, false}, // a token bound to an item creates no other
		{"Get", func(ctx context.Context, id uuid.UUID) error { _, err := env.Sync.Get(ctx, id); return err }, true},
		{"Resources", func(ctx context.Context, id uuid.UUID) error { _, err := env.Sync.Resources(ctx, id, nil); return err }, true},
		{"Update", func(ctx context.Context, id uuid.UUID) error {
			_, err := env.Sync.Update(ctx, id, &model.UpdateItemInput{Parameters: map[string]any{"password": "password-ok"}})
			return err
		}, true},
		{"SubmitMFA", func(ctx context.Context, id uuid.UUID) error {
			_, err := env.Sync.SubmitMFA(ctx, id, map[string]any{"token": "123456"})
			return err
		}, true},
		{"Delete", func(ctx context.Context, id uuid.UUID) error { _, err := env.Sync.Delete(ctx, id); return err }, false},
		{"List", func(ctx context.Context, _ uuid.UUID) error {
			_, err := env.Sync.List(ctx, model.ItemFilter{}, nil)
			return err
		}, false},
		{"ListPage", func(ctx context.Context, _ uuid.UUID) error {
			_, _, err := env.Sync.ListPage(ctx, model.ItemFilter{}, "", 10)
			return err
		}, false},
		{"CountItems", func(ctx context.Context, _ uuid.UUID) error {
			_, err := env.Sync.CountItems(ctx, model.ItemFilter{})
			return err
		}, false},
		{"CreateConnectToken", func(ctx context.Context, id uuid.UUID) error {
			_, err := env.Sync.CreateConnectToken(ctx, &id, nil)
			return err
		}, false},
	}
	for _, op := range ops {
		wantCode(t, op.name+" without a credential", op.call(none, own.ID), model.CodeAPIKeyMissing)
		wantCode(t, op.name+" with a refused credential", op.call(refused, own.ID), model.CodeAPIKeyInvalid)
		wantCode(t, op.name+" with the token on another item", op.call(tok, other.ID), model.CodeForbidden)
		if err := op.call(tok, own.ID); op.token {
			var e *model.Error
			if errorsAs(err, &e) && (e.Code == model.CodeForbidden || e.Code.Status() == 401) {
				t.Fatalf("%s with the token on its own item: %v", op.name, err)
			}
		} else {
			wantCode(t, op.name+" with the token", err, model.CodeForbidden)
		}
	}
}
