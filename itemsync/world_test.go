package itemsync_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// The engine's rules against a real database: these tests call itemsync.Engine directly,
// with the service's job workers running the executions. The HTTP surface is tested in
// rest/.

// app is one client application as the engine sees it: ctx carries its API key's
// principal, as the HTTP layer puts it there.
type app struct {
	env *testsupport.Env
	id  uuid.UUID
	ctx context.Context
	key string
}

func newApp(t *testing.T, env *testsupport.Env, name string) *app {
	t.Helper()
	key := env.NewClient(t, name).APIKey
	p, err := env.Auth.Verify(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return &app{env: env, id: p.ClientID, ctx: auth.WithResult(context.Background(), p, nil), key: key}
}

func params(user string) map[string]any {
	return map[string]any{"user": user, "password": "password-ok"}
}

// create makes an item and returns it as Create answered (UPDATING).
func (a *app) create(t *testing.T, connector int, p map[string]any) *model.Item {
	t.Helper()
	it, err := a.env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: connector, Parameters: p})
	if err != nil {
		t.Fatalf("create an item of connector %d: %v", connector, err)
	}
	if it.Status != model.ItemUpdating || it.Connector == nil || it.Connector.ID != connector {
		t.Fatalf("created item %+v", it)
	}
	return it
}

// await reads the item until done holds.
func (a *app) await(t *testing.T, id uuid.UUID, what string, done func(*model.Item) bool) *model.Item {
	t.Helper()
	var it *model.Item
	testsupport.Eventually(t, what, 30*time.Second, func() bool {
		var err error
		if it, err = a.env.Sync.Get(a.ctx, id); err != nil {
			t.Fatal(err)
		}
		return done(it)
	})
	return it
}

// settle waits until the item no longer executes (or waits for the user).
func (a *app) settle(t *testing.T, id uuid.UUID) *model.Item {
	t.Helper()
	return a.await(t, id, "item "+id.String()+" to settle", testsupport.Settled)
}

func (a *app) set(t *testing.T, assignments string) {
	t.Helper()
	a.env.Exec(t, `UPDATE client_applications SET `+assignments+` WHERE id = $1`, a.id)
}

// issue is a Connect Token the application asks for.
func (a *app) issue(t *testing.T, itemID *uuid.UUID, opts *model.ConnectTokenOptions) string {
	t.Helper()
	tok, err := a.env.Sync.CreateConnectToken(a.ctx, itemID, opts)
	if err != nil {
		t.Fatalf("issue a Connect Token: %v", err)
	}
	return tok.AccessToken
}

// holding is the context of a request sent with credential, as the HTTP layer makes it.
func holding(t *testing.T, env *testsupport.Env, credential string) context.Context {
	t.Helper()
	p, err := env.Auth.Verify(context.Background(), credential)
	if err != nil {
		t.Fatal(err)
	}
	return auth.WithResult(context.Background(), p, nil)
}

// token is the context of a request with a new Connect Token of the application's.
func (a *app) token(t *testing.T, itemID *uuid.UUID, opts *model.ConnectTokenOptions) context.Context {
	t.Helper()
	return holding(t, a.env, a.issue(t, itemID, opts))
}

// events lists the names of an item's events, oldest first.
func (a *app) events(t *testing.T, id uuid.UUID) []string {
	t.Helper()
	list, err := a.env.Webhooks.Events(a.ctx, &id)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Event
	}
	return names
}

// executionOf is the id of the execution an item's user action waits on, from its link.
func executionOf(t *testing.T, it *model.Item) uuid.UUID {
	t.Helper()
	if it.UserAction == nil {
		t.Fatalf("item %s waits for no action: %s", it.ID, it.Status)
	}
	link, _ := it.UserAction.Attributes["url"].(string)
	id, err := uuid.Parse(link[strings.LastIndex(link, "/")+1:])
	if err != nil {
		t.Fatalf("action link %q: %v", link, err)
	}
	return id
}

// wantCode fails unless err is the documented error code.
func wantCode(t *testing.T, what string, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
}

func ptr[T any](v T) *T { return &v }

func errorsAs(err error, target **model.Error) bool { return errors.As(err, target) }
