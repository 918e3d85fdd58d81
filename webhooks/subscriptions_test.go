package webhooks_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// A webhook's life: what Create refuses, the limit, what each application sees of others',
// what Update changes and keeps, and Delete.
func TestSubscriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
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
		_, err := eng.Create(ctx, a.p, c.in)
		wantCode(t, c.name, err, c.code, c.says)
	}

	first, err := eng.Create(ctx, a.p, in("item/created", "https://hooks.example.com/one", map[string]any{"authorization": "Bearer one"}))
	if err != nil {
		t.Fatal(err)
	}
	if first.Event != "item/created" || first.URL != "https://hooks.example.com/one" || first.DisabledAt != nil ||
		first.Headers["Authorization"] != "Bearer one" || !first.CreatedAt.Equal(first.UpdatedAt.Time) {
		t.Fatalf("created %+v", first)
	}
	_, err = eng.Create(ctx, a.p, in("item/created", "https://hooks.example.com/one", nil))
	wantCode(t, "the same event at the same URL", err, model.CodeWebhookExists, "already exists")
	// The same URL for another event, or another application's same webhook, is no duplicate.
	if _, err := eng.Create(ctx, a.p, in("item/error", "https://hooks.example.com/one", nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Create(ctx, b.p, in("item/created", "https://hooks.example.com/one", nil)); err != nil {
		t.Fatal(err)
	}

	t.Run("limit, disabled ones included", func(t *testing.T) {
		third, err := eng.Create(ctx, a.p, in("all", "https://hooks.example.com/three", nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Update(ctx, a.p, third.ID, model.WebhookInput{Enabled: ptr(false)}); err != nil {
			t.Fatal(err)
		}
		_, err = eng.Create(ctx, a.p, in("all", "https://hooks.example.com/four", nil))
		wantCode(t, "a fourth webhook over a limit of 3", err, model.CodeWebhookLimitReached, "at most 3 webhooks")
		if _, err := eng.Delete(ctx, a.p, third.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.Create(ctx, a.p, in("all", "https://hooks.example.com/four", nil)); err != nil {
			t.Fatalf("after a delete, under the limit again: %v", err)
		}
	})

	t.Run("another application's webhook is unknown", func(t *testing.T) {
		_, err := eng.Get(ctx, b.p, first.ID)
		wantCode(t, "get", err, model.CodeWebhookNotFound, first.ID.String())
		_, err = eng.Update(ctx, b.p, first.ID, model.WebhookInput{Event: ptr("all")})
		wantCode(t, "update", err, model.CodeWebhookNotFound, first.ID.String())
		_, err = eng.Delete(ctx, b.p, first.ID)
		wantCode(t, "delete", err, model.CodeWebhookNotFound, first.ID.String())
		_, _, err = eng.Deliveries(ctx, b.p, first.ID, 10, 0)
		wantCode(t, "deliveries", err, model.CodeWebhookNotFound, first.ID.String())
		if got, err := eng.Get(ctx, a.p, first.ID); err != nil || got.Headers["Authorization"] != "Bearer one" {
			t.Fatalf("the owner's webhook after the others' tries: %+v, %v", got, err)
		}
		list, total, err := eng.List(ctx, b.p, 10, 0)
		if err != nil || total != 1 || len(list) != 1 || list[0].URL != "https://hooks.example.com/one" {
			t.Fatalf("b lists %d of %d (%v)", len(list), total, err)
		}
	})

	t.Run("list pages, oldest first", func(t *testing.T) {
		all, total, err := eng.List(ctx, a.p, 10, 0)
		if err != nil || total != 3 || len(all) != 3 || all[0].ID != first.ID {
			t.Fatalf("list: %d of %d, first %v (%v)", len(all), total, all, err)
		}
		page, total, err := eng.List(ctx, a.p, 2, 2)
		if err != nil || total != 3 || len(page) != 1 || page[0].ID != all[2].ID {
			t.Fatalf("second page of 2: %d of %d (%v)", len(page), total, err)
		}
		if all[0].Headers["Authorization"] != "Bearer one" || len(all[1].Headers) != 0 {
			t.Fatalf("listed headers %v, %v", all[0].Headers, all[1].Headers)
		}
	})

	t.Run("update changes what is given and keeps the rest", func(t *testing.T) {
		testsupport.Eventually(t, "the clock to pass the creation", time.Second, func() bool {
			return time.Now().Truncate(time.Millisecond).After(first.UpdatedAt.Time)
		})
		up, err := eng.Update(ctx, a.p, first.ID, model.WebhookInput{Event: ptr("item/updated"), Enabled: ptr(false)})
		if err != nil {
			t.Fatal(err)
		}
		if up.Event != "item/updated" || up.URL != first.URL || up.DisabledAt == nil || up.Headers["Authorization"] != "Bearer one" ||
			!up.UpdatedAt.After(first.CreatedAt.Time) || !up.CreatedAt.Equal(first.CreatedAt.Time) {
			t.Fatalf("updated %+v", up)
		}
		disabledAt := up.DisabledAt.Time
		again, err := eng.Update(ctx, a.p, first.ID, model.WebhookInput{Enabled: ptr(false)})
		if err != nil || again.DisabledAt == nil || !again.DisabledAt.Equal(disabledAt) {
			t.Fatalf("disabling a disabled webhook moved disabledAt: %+v (%v)", again, err)
		}
		up, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{Enabled: ptr(true), HeadersSet: true, URL: ptr("https://hooks.example.com/moved")})
		if err != nil || up.DisabledAt != nil || len(up.Headers) != 0 || up.URL != "https://hooks.example.com/moved" {
			t.Fatalf("enabled, headers null, moved: %+v (%v)", up, err)
		}
		if got, _ := eng.Get(ctx, a.p, first.ID); got.URL != up.URL || len(got.Headers) != 0 || got.DisabledAt != nil {
			t.Fatalf("stored %+v", got)
		}
		up, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{Headers: map[string]any{"x-tenant": "t1"}})
		if err != nil || up.Headers["X-Tenant"] != "t1" {
			t.Fatalf("new headers: %+v (%v)", up, err)
		}
		_, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{URL: ptr("https://localhost/x")})
		wantCode(t, "a localhost URL", err, model.CodeInvalidParameter, "localhost")
		_, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{Event: ptr("nope")})
		wantCode(t, "an unknown event", err, model.CodeInvalidWebhookEvent, "nope")
		_, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{Headers: map[string]any{"Host": "x"}})
		wantCode(t, "a reserved header", err, model.CodeInvalidParameter, "cannot be replaced")
		_, err = eng.Update(ctx, a.p, first.ID, model.WebhookInput{Event: ptr("item/error"), URL: ptr("https://hooks.example.com/one")})
		wantCode(t, "onto another webhook's event and URL", err, model.CodeWebhookExists, "already exists")
		if got, _ := eng.Get(ctx, a.p, first.ID); got.Event != "item/updated" || got.Headers["X-Tenant"] != "t1" {
			t.Fatalf("a refused update changed the webhook: %+v", got)
		}
		_, err = eng.Update(ctx, a.p, uuid.New(), model.WebhookInput{Event: ptr("all")})
		wantCode(t, "an unknown id", err, model.CodeWebhookNotFound, "not found")
	})

	t.Run("delete answers the webhook once", func(t *testing.T) {
		gone, err := eng.Delete(ctx, a.p, first.ID)
		if err != nil || gone.ID != first.ID || gone.Headers["X-Tenant"] != "t1" {
			t.Fatalf("deleted %+v (%v)", gone, err)
		}
		_, err = eng.Delete(ctx, a.p, first.ID)
		wantCode(t, "a second delete", err, model.CodeWebhookNotFound, "not found")
		_, err = eng.Get(ctx, a.p, first.ID)
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
	w, err := eng.Create(ctx, a.p, model.WebhookInput{Event: ptr("all"), URL: ptr("https://hooks.example.com/h"),
		Headers: map[string]any{"Authorization": "Bearer s3cret-token"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := eng.Create(ctx, a.p, model.WebhookInput{Event: ptr("all"), URL: ptr("https://hooks.example.com/other")})
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
	if got, err := eng.Get(ctx, a.p, other.ID); err == nil {
		t.Fatalf("headers sealed for one webhook opened on another: %+v", got)
	}
	env.Exec(t, `UPDATE webhooks SET headers_sealed = NULL WHERE id = $1`, other.ID)

	// A webhook stored before the sealing, as migration 0011 left it.
	env.Exec(t, `UPDATE webhooks SET headers_sealed = NULL, headers_plaintext = '{"X-Legacy": "v1"}' WHERE id = $1`, w.ID)
	if got, err := eng.Get(ctx, a.p, w.ID); err != nil || got.Headers["X-Legacy"] != "v1" || len(got.Headers) != 1 {
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
	if got, err := eng.Get(ctx, a.p, w.ID); err != nil || got.Headers["X-Legacy"] != "v1" {
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
	ctx := context.Background()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	a, b := newClient(t, env, "secrets-a"), newClient(t, env, "secrets-b")
	s1, err := env.Webhooks.SigningSecret(ctx, a.p)
	if err != nil {
		t.Fatal(err)
	}
	key, err := webhooks.SecretKey(s1.Secret)
	if err != nil || len(key) != 32 || s1.PreviousSecret != nil || s1.PreviousExpiresAt != nil {
		t.Fatalf("first secret %+v: key of %d bytes (%v)", s1, len(key), err)
	}
	if again, _ := env.Webhooks.SigningSecret(ctx, a.p); again.Secret != s1.Secret {
		t.Fatal("the secret changed between two reads")
	}
	if sb, _ := env.Webhooks.SigningSecret(ctx, b.p); sb.Secret == s1.Secret {
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
	s2, err := env.Webhooks.RotateSigningSecret(ctx, a.p)
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
	if s3, err := short.SigningSecret(ctx, a.p); err != nil || s3.Secret != s2.Secret || s3.PreviousSecret != nil {
		t.Fatalf("past the overlap: %+v (%v)", s3, err)
	}
	// Under another master key the stored secret does not open.
	if _, err := webhooks.New(env.DB, []byte("another-master-key-0123456789abcdef"), webhooks.DefaultConfig(), testsupport.Logger()).SigningSecret(ctx, a.p); err == nil {
		t.Fatal("a secret sealed under one master key opened under another")
	}
}
