package webhooks_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// A webhook's life: what Create refuses, the limit, what each application sees of others',
// what Update changes and keeps, and Delete.
func TestSubscriptions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Webhooks.Limit = 3 })
	eng := env.Webhooks
	a, b := newClient(t, env, "subscriptions-a"), newClient(t, env, "subscriptions-b")
	in := func(event, url string, headers map[string]any) model.WebhookInput {
		return model.WebhookInput{Event: &event, URL: &url, Headers: headers}
	}

	refused := []struct {
		name string
		in   model.WebhookInput
		code model.Code
		says string
	}{
		{"no url", model.WebhookInput{Event: ptr("all")}, model.CodeInvalidParameter, "url is required"},
		{"empty url", in("all", "", nil), model.CodeInvalidParameter, "url is required"},
		{"no event", model.WebhookInput{URL: ptr("https://hooks.example.com/x")}, model.CodeInvalidParameter, "event is required"},
		{"enabled on create", model.WebhookInput{Event: ptr("all"), URL: ptr("https://hooks.example.com/x"), Enabled: ptr(true)}, model.CodeInvalidParameter, "only accepted when updating"},
		{"plain http", in("all", "http://hooks.example.com/x", nil), model.CodeInvalidParameter, "https"},
		{"an IP address", in("all", "https://93.184.215.14/x", nil), model.CodeInvalidParameter, "IP address"},
		{"item/all", in("item/all", "https://hooks.example.com/x", nil), model.CodeInvalidWebhookEvent, "item/all"},
		{"unknown event", in("item/exploded", "https://hooks.example.com/x", nil), model.CodeInvalidWebhookEvent, "item/exploded"},
		{"reserved header", in("all", "https://hooks.example.com/x", map[string]any{"Webhook-Id": "x"}), model.CodeInvalidParameter, "cannot be replaced"},
	}
	for _, c := range refused {
		_, err := eng.Create(a.ctx, c.in)
		wantCode(t, c.name, err, c.code, c.says)
	}

	first, err := eng.Create(a.ctx, in("item/created", "https://hooks.example.com/one", map[string]any{"authorization": "Bearer one"}))
	if err != nil {
		t.Fatal(err)
	}
	if first.Event != "item/created" || first.URL != "https://hooks.example.com/one" || first.DisabledAt != nil ||
		first.Headers["Authorization"] != "Bearer one" || !first.CreatedAt.Equal(first.UpdatedAt.Time) {
		t.Fatalf("created %+v", first)
	}
	_, err = eng.Create(a.ctx, in("item/created", "https://hooks.example.com/one", nil))
	wantCode(t, "the same event at the same URL", err, model.CodeWebhookExists, "already exists")
	// The same URL for another event, or another application's same webhook, is no duplicate.
	if _, err := eng.Create(a.ctx, in("item/error", "https://hooks.example.com/one", nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Create(b.ctx, in("item/created", "https://hooks.example.com/one", nil)); err != nil {
		t.Fatal(err)
	}

	t.Run("limit, disabled ones included", func(t *testing.T) {
		third, err := eng.Create(a.ctx, in("all", "https://hooks.example.com/three", nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Update(a.ctx, third.ID, model.WebhookInput{Enabled: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		_, err = eng.Create(a.ctx, in("all", "https://hooks.example.com/four", nil))
		wantCode(t, "a fourth webhook over a limit of 3", err, model.CodeWebhookLimitReached, "at most 3 webhooks")
		if _, err := eng.Delete(a.ctx, third.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Create(a.ctx, in("all", "https://hooks.example.com/four", nil)); err != nil {
			t.Fatalf("after a delete, under the limit again: %v", err)
		}
	})

	t.Run("another application's webhook is unknown", func(t *testing.T) {
		_, err := eng.Get(b.ctx, first.ID)
		wantCode(t, "get", err, model.CodeWebhookNotFound, first.ID.String())
		_, err = eng.Update(b.ctx, first.ID, model.WebhookInput{Event: ptr("all")})
		wantCode(t, "update", err, model.CodeWebhookNotFound, first.ID.String())
		_, err = eng.Delete(b.ctx, first.ID)
		wantCode(t, "delete", err, model.CodeWebhookNotFound, first.ID.String())
		_, err = eng.Deliveries(b.ctx, first.ID, nil, nil)
		wantCode(t, "deliveries", err, model.CodeWebhookNotFound, first.ID.String())
		if got, err := eng.Get(a.ctx, first.ID); err != nil || got.Headers["Authorization"] != "Bearer one" {
			t.Fatalf("the owner's webhook after the others' tries: %+v, %v", got, err)
		}
		list, err := eng.List(b.ctx, nil, nil)
		if err != nil || list.Total != 1 || len(list.Results) != 1 || list.Results[0].URL != "https://hooks.example.com/one" {
			t.Fatalf("b lists %+v (%v)", list, err)
		}
	})

	t.Run("list pages, oldest first", func(t *testing.T) {
		list, err := eng.List(a.ctx, nil, ptr(10))
		if err != nil || list.Total != 3 || list.TotalPages != 1 || list.Page != 1 || len(list.Results) != 3 || list.Results[0].ID != first.ID {
			t.Fatalf("list: %+v (%v)", list, err)
		}
		all := list.Results
		page, err := eng.List(a.ctx, ptr(2), ptr(2))
		if err != nil || page.Total != 3 || page.TotalPages != 2 || page.Page != 2 || len(page.Results) != 1 || page.Results[0].ID != all[2].ID {
			t.Fatalf("second page of 2: %+v (%v)", page, err)
		}
		if _, err := eng.List(a.ctx, ptr(0), nil); err == nil {
			t.Fatal("page 0 was read")
		}
		if all[0].Headers["Authorization"] != "Bearer one" || len(all[1].Headers) != 0 {
			t.Fatalf("listed headers %v, %v", all[0].Headers, all[1].Headers)
		}
	})

	t.Run("update changes what is given and keeps the rest", func(t *testing.T) {
		testsupport.Eventually(t, "the clock to pass the creation", time.Second, func() bool {
			return time.Now().Truncate(time.Millisecond).After(first.UpdatedAt.Time)
		})
		up, err := eng.Update(a.ctx, first.ID, model.WebhookInput{Event: ptr("item/updated"), Enabled: ptr(false)})
		if err != nil {
			t.Fatal(err)
		}
		if up.Event != "item/updated" || up.URL != first.URL || up.DisabledAt == nil || up.Headers["Authorization"] != "Bearer one" ||
			!up.UpdatedAt.After(first.CreatedAt.Time) || !up.CreatedAt.Equal(first.CreatedAt.Time) {
			t.Fatalf("updated %+v", up)
		}
		disabledAt := up.DisabledAt.Time
		again, err := eng.Update(a.ctx, first.ID, model.WebhookInput{Enabled: ptr(false)})
		if err != nil || again.DisabledAt == nil || !again.DisabledAt.Equal(disabledAt) {
			t.Fatalf("disabling a disabled webhook moved disabledAt: %+v (%v)", again, err)
		}
		up, err = eng.Update(a.ctx, first.ID, model.WebhookInput{Enabled: ptr(true), HeadersSet: true, URL: ptr("https://hooks.example.com/moved")})
		if err != nil || up.DisabledAt != nil || len(up.Headers) != 0 || up.URL != "https://hooks.example.com/moved" {
			t.Fatalf("enabled, headers null, moved: %+v (%v)", up, err)
		}
		if got, _ := eng.Get(a.ctx, first.ID); got.URL != up.URL || len(got.Headers) != 0 || got.DisabledAt != nil {
			t.Fatalf("stored %+v", got)
		}
		up, err = eng.Update(a.ctx, first.ID, model.WebhookInput{Headers: map[string]any{"x-tenant": "t1"}})
		if err != nil || up.Headers["X-Tenant"] != "t1" {
			t.Fatalf("new headers: %+v (%v)", up, err)
		}
		_, err = eng.Update(a.ctx, first.ID, model.WebhookInput{URL: ptr("https://localhost/x")})
		wantCode(t, "a localhost URL", err, model.CodeInvalidParameter, "localhost")
		_, err = eng.Update(a.ctx, first.ID, model.WebhookInput{Event: ptr("nope")})
		wantCode(t, "an unknown event", err, model.CodeInvalidWebhookEvent, "nope")
		_, err = eng.Update(a.ctx, first.ID, model.WebhookInput{Headers: map[string]any{"Host": "x"}})
		wantCode(t, "a reserved header", err, model.CodeInvalidParameter, "cannot be replaced")
		_, err = eng.Update(a.ctx, first.ID, model.WebhookInput{Event: ptr("item/error"), URL: ptr("https://hooks.example.com/one")})
		wantCode(t, "onto another webhook's event and URL", err, model.CodeWebhookExists, "already exists")
		if got, _ := eng.Get(a.ctx, first.ID); got.Event != "item/updated" || got.Headers["X-Tenant"] != "t1" {
			t.Fatalf("a refused update changed the webhook: %+v", got)
		}
		_, err = eng.Update(a.ctx, uuid.New(), model.WebhookInput{Event: ptr("all")})
		wantCode(t, "an unknown id", err, model.CodeWebhookNotFound, "not found")
	})

	t.Run("delete answers the webhook once", func(t *testing.T) {
		gone, err := eng.Delete(a.ctx, first.ID)
		if err != nil || gone.ID != first.ID || gone.Headers["X-Tenant"] != "t1" {
			t.Fatalf("deleted %+v (%v)", gone, err)
		}
		_, err = eng.Delete(a.ctx, first.ID)
		wantCode(t, "a second delete", err, model.CodeWebhookNotFound, "not found")
		_, err = eng.Get(a.ctx, first.ID)
		wantCode(t, "get after delete", err, model.CodeWebhookNotFound, "not found")
	})
}

// Custom headers often carry a receiver's credential: stored sealed under the master key,
// bound to their webhook, and those a start before the sealing left in plain text are
// read as they are and sealed once.
func TestHeadersAtRest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := testsupport.New(t)
	eng := env.Webhooks
	a := newClient(t, env, "headers")
	w, err := eng.Create(a.ctx, model.WebhookInput{Event: ptr("all"), URL: ptr("https://hooks.example.com/h"),
		Headers: map[string]any{"Authorization": "Bearer s3cret-token"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := eng.Create(a.ctx, model.WebhookInput{Event: ptr("all"), URL: ptr("https://hooks.example.com/other")})
	if err != nil {
		t.Fatal(err)
	}
	var sealed []byte
	var plain *string
	if err := env.DB.Pool.QueryRow(ctx, `SELECT headers_sealed, headers_plaintext::text FROM webhooks WHERE id = $1`, w.ID).Scan(&sealed, &plain); err != nil {
		t.Fatal(err)
	}
	if len(sealed) == 0 || plain != nil || bytes.Contains(sealed, []byte("s3cret-token")) {
		t.Fatalf("stored sealed %q, plain %v", sealed, plain)
	}

	// A sealed value copied onto another webhook does not open there.
	env.Exec(t, `UPDATE webhooks SET headers_sealed = $1 WHERE id = $2`, sealed, other.ID)
	if got, err := eng.Get(a.ctx, other.ID); err == nil {
		t.Fatalf("headers sealed for one webhook opened on another: %+v", got)
	}
	env.Exec(t, `UPDATE webhooks SET headers_sealed = NULL WHERE id = $1`, other.ID)

	// A webhook stored before the sealing, as migration 0011 left it.
	env.Exec(t, `UPDATE webhooks SET headers_sealed = NULL, headers_plaintext = '{"X-Legacy": "v1"}' WHERE id = $1`, w.ID)
	if got, err := eng.Get(a.ctx, w.ID); err != nil || got.Headers["X-Legacy"] != "v1" || len(got.Headers) != 1 {
		t.Fatalf("legacy headers read as %+v (%v)", got, err)
	}
	if n, err := eng.SealStoredHeaders(ctx); err != nil || n != 1 {
		t.Fatalf("sealed %d (%v), want the one legacy webhook", n, err)
	}
	if err := env.DB.Pool.QueryRow(ctx, `SELECT headers_sealed, headers_plaintext::text FROM webhooks WHERE id = $1`, w.ID).Scan(&sealed, &plain); err != nil {
		t.Fatal(err)
	}
	if len(sealed) == 0 || plain != nil {
		t.Fatalf("after sealing: sealed %d bytes, plain %v", len(sealed), plain)
	}
	if got, err := eng.Get(a.ctx, w.ID); err != nil || got.Headers["X-Legacy"] != "v1" {
		t.Fatalf("sealed legacy headers read as %+v (%v)", got, err)
	}
	if n, err := eng.SealStoredHeaders(ctx); err != nil || n != 0 {
		t.Fatalf("a second start sealed %d (%v)", n, err)
	}
}

// The signing secret is made on first use and stays; a rotation keeps the previous one
// signing beside the new one for the overlap, after which it is gone.
func TestSigningSecrets(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	a, b := newClient(t, env, "secrets-a"), newClient(t, env, "secrets-b")
	s1, err := env.Webhooks.SigningSecret(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	key, err := webhooks.SecretKey(s1.Secret)
	if err != nil || len(key) != 32 || s1.PreviousSecret != nil || s1.PreviousExpiresAt != nil {
		t.Fatalf("first secret %+v: key of %d bytes (%v)", s1, len(key), err)
	}
	if again, _ := env.Webhooks.SigningSecret(a.ctx); again.Secret != s1.Secret {
		t.Fatal("the secret changed between two reads")
	}
	if sb, _ := env.Webhooks.SigningSecret(b.ctx); sb.Secret == s1.Secret {
		t.Fatal("two applications share a secret")
	}
	sent := func(path string) testsupport.Delivery {
		t.Helper()
		settled(t, env, a, record(t, env, a, "item/updated", rc.URL+path))
		return rc.Of("item/updated", path)[0]
	}
	if d := sent("/before"); !signedBy(t, s1.Secret, d) || len(strings.Fields(d.Header.Get("webhook-signature"))) != 1 {
		t.Fatalf("before a rotation: signature %q", d.Header.Get("webhook-signature"))
	}
	before := time.Now()
	s2, err := env.Webhooks.RotateSigningSecret(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Secret == s1.Secret || s2.PreviousSecret == nil || *s2.PreviousSecret != s1.Secret || s2.PreviousExpiresAt == nil {
		t.Fatalf("after rotation %+v", s2)
	}
	if until := s2.PreviousExpiresAt.Sub(before); until < 24*time.Hour-time.Minute || until > 24*time.Hour+time.Minute {
		t.Fatalf("the previous secret signs for %s, want the default overlap of 24h", until)
	}
	if d := sent("/after"); !signedBy(t, s1.Secret, d) || !signedBy(t, s2.Secret, d) {
		t.Fatalf("during the overlap, a delivery is signed %q: want the new secret's and the previous one's", d.Header.Get("webhook-signature"))
	}
	// Another process with a one-nanosecond overlap: the previous secret has expired there.
	short := webhooks.New(env.DB, testsupport.MasterKey, webhooks.Config{SecretOverlap: time.Nanosecond}, testsupport.Logger())
	if s3, err := short.SigningSecret(a.ctx); err != nil || s3.Secret != s2.Secret || s3.PreviousSecret != nil {
		t.Fatalf("past the overlap: %+v (%v)", s3, err)
	}
	// Under another master key the stored secret does not open.
	if _, err := webhooks.New(env.DB, []byte("another-master-key-0123456789abcdef"), webhooks.DefaultConfig(), testsupport.Logger()).SigningSecret(a.ctx); err == nil {
		t.Fatal("a secret sealed under one master key opened under another")
	}
}

// Every operation of the engine checks its caller itself: none without a credential, none
// with a Connect Token (webhooks and events are the application's server's), and an
// application's key reaches its own webhooks and events only (above).
func TestEveryOperationChecksTheCaller(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	eng := env.Webhooks
	a := newClient(t, env, "caller-a")
	// Subscribed to another event than the one recorded: nothing is sent anywhere.
	w, err := eng.Create(a.ctx, model.WebhookInput{Event: ptr("transactions/deleted"), URL: ptr("https://hooks.example.com/caller")})
	if err != nil {
		t.Fatal(err)
	}
	ev := record(t, env, a, "item/created", "")
	tok, err := env.Auth.IssueConnectToken(context.Background(), a.p, nil, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pt, err := env.Auth.Verify(context.Background(), tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	callers := []struct {
		name string
		ctx  context.Context
		code model.Code
	}{
		{"no credential", context.Background(), model.CodeAPIKeyMissing},
		{"a refused credential", auth.WithResult(context.Background(), nil, model.Fail(model.CodeAPIKeyExpired, "expired")), model.CodeAPIKeyExpired},
		{"a Connect Token", auth.WithResult(context.Background(), pt, nil), model.CodeForbidden},
	}
	in := model.WebhookInput{Event: ptr("transactions/updated"), URL: ptr("https://hooks.example.com/other")}
	type op struct {
		name string
		call func(ctx context.Context) error
	}
	ops := []op{ // Delete last: the others address the webhook
		{"Create", func(ctx context.Context) error { _, err := eng.Create(ctx, in); return err }},
		{"Get", func(ctx context.Context) error { _, err := eng.Get(ctx, w.ID); return err }},
		{"List", func(ctx context.Context) error { _, err := eng.List(ctx, nil, nil); return err }},
		{"Update", func(ctx context.Context) error {
			_, err := eng.Update(ctx, w.ID, model.WebhookInput{Enabled: ptr(false)})
			return err
		}},
		{"Deliveries", func(ctx context.Context) error { _, err := eng.Deliveries(ctx, w.ID, nil, nil); return err }},
		{"Event", func(ctx context.Context) error { _, err := eng.Event(ctx, ev); return err }},
		{"Events", func(ctx context.Context) error { _, err := eng.Events(ctx, nil); return err }},
		{"EventDeliveries", func(ctx context.Context) error {
			_, err := eng.EventDeliveries(ctx, []*model.Event{{ID: ev}})
			return err
		}},
		{"Redeliver", func(ctx context.Context) error { _, err := eng.Redeliver(ctx, ev); return err }},
		{"SigningSecret", func(ctx context.Context) error { _, err := eng.SigningSecret(ctx); return err }},
		{"RotateSigningSecret", func(ctx context.Context) error { _, err := eng.RotateSigningSecret(ctx); return err }},
		{"Delete", func(ctx context.Context) error { _, err := eng.Delete(ctx, w.ID); return err }},
	}
	for _, o := range ops {
		for _, c := range callers {
			var e *model.Error
			if err := o.call(c.ctx); !errors.As(err, &e) || e.Code != c.code {
				t.Errorf("%s with %s: %v, want %s", o.name, c.name, err, c.code)
			}
		}
		if err := o.call(a.ctx); err != nil {
			t.Errorf("%s with the application's key: %v", o.name, err)
		}
	}
	if got, err := eng.Get(a.ctx, w.ID); err == nil {
		t.Fatalf("the webhook outlived Delete: %+v", got)
	}
}

// Events lists an application's events, oldest first, or one item's; another
// application's are not there.
func TestEvents(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := newClient(t, env, "events-a"), newClient(t, env, "events-b")
	first := record(t, env, a, "item/created", "")
	second := record(t, env, a, "item/updated", "")
	record(t, env, b, "item/created", "")
	list, err := env.Webhooks.Events(a.ctx, nil)
	if err != nil || len(list) != 2 || list[0].ID != first || list[1].ID != second || list[1].Event != "item/updated" {
		t.Fatalf("a's events: %+v (%v)", list, err)
	}
	item := uuid.New()
	ev := &db.Event{ClientID: a.p.ClientID, Event: "item/deleted", ItemID: &item, Payload: map[string]any{"itemId": item.String()}}
	if err := env.DB.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error { return tx.InsertEvent(ctx, ev) }); err != nil {
		t.Fatal(err)
	}
	if list, err := env.Webhooks.Events(a.ctx, &item); err != nil || len(list) != 1 || list[0].ID != ev.ID || list[0].Payload["itemId"] != item.String() {
		t.Fatalf("the item's events: %+v (%v)", list, err)
	}
	if list, err := env.Webhooks.Events(b.ctx, &item); err != nil || len(list) != 0 {
		t.Fatalf("b reads a's item's events: %+v (%v)", list, err)
	}
}
