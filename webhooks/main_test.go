package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
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

// The engine's rules against a real database: these tests call webhooks.Engine directly,
// with the service's job workers delivering to receivers on loopback. The HTTP surface is
// tested in rest/.

func TestMain(m *testing.M) { testsupport.Main(m) }

// client is one application of a test service, as the engine sees it: ctx carries its
// API key's principal, as the HTTP layer puts it there.
type client struct {
	p   *auth.Principal
	ctx context.Context
	key string
}

func newClient(t *testing.T, env *testsupport.Env, name string) *client {
	t.Helper()
	key := env.NewClient(t, name).APIKey
	p, err := env.Auth.Verify(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return &client{p: p, ctx: auth.WithResult(context.Background(), p, nil), key: key}
}

// record writes an event of c's as a domain package does, in a transaction of its own; the
// engine fans it out in that transaction. target is a resource's own webhookUrl, or "".
func record(t *testing.T, env *testsupport.Env, c *client, event, target string) uuid.UUID {
	t.Helper()
	ev := &db.Event{ClientID: c.p.ClientID, Event: event, Payload: map[string]any{"itemId": uuid.NewString(), "triggeredBy": "USER"}}
	if target != "" {
		ev.TargetURL = &target
	}
	if err := env.DB.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error { return tx.InsertEvent(ctx, ev) }); err != nil {
		t.Fatalf("record %s: %v", event, err)
	}
	return ev.ID
}

// deliveries reads an event's deliveries with their attempts.
func deliveries(t *testing.T, env *testsupport.Env, c *client, event uuid.UUID) []*model.WebhookDelivery {
	t.Helper()
	m, err := env.Webhooks.EventDeliveries(c.ctx, []*model.Event{{ID: event}})
	if err != nil {
		t.Fatal(err)
	}
	return m[0]
}

// settled waits until none of an event's deliveries is PENDING, and returns them.
func settled(t *testing.T, env *testsupport.Env, c *client, event uuid.UUID) []*model.WebhookDelivery {
	t.Helper()
	var list []*model.WebhookDelivery
	testsupport.Eventually(t, "the deliveries of event "+event.String()+" to end", 30*time.Second, func() bool {
		list = deliveries(t, env, c, event)
		for _, d := range list {
			if d.Status == webhooks.StatusPending {
				return false
			}
		}
		return len(list) > 0
	})
	return list
}

// drained waits until the delivery queue holds nothing to run now or later: every
// delivery has been sent for the last time, so what a receiver got is final.
func drained(t *testing.T, env *testsupport.Env) {
	t.Helper()
	testsupport.Eventually(t, "the delivery queue to empty", 30*time.Second, func() bool {
		depths, err := env.DB.JobDepths(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range depths {
			if d.Queue == webhooks.Queue && d.Jobs > 0 {
				return false
			}
		}
		return true
	})
}

// wantCode fails unless err is the documented error code saying says.
func wantCode(t *testing.T, what string, err error, code model.Code, says string) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, says) {
		t.Fatalf("%s: got %v, want %s saying %q", what, err, code, says)
	}
}

// signedBy reports whether one of a delivery's v1 signatures is the HMAC-SHA256, under the
// whsec_ secret, of "webhook-id.webhook-timestamp.body": computed here as a receiver
// would, apart from the engine's Sign.
func signedBy(t *testing.T, secret string, d testsupport.Delivery) bool {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(d.Header.Get("webhook-id") + "." + d.Header.Get("webhook-timestamp") + "."))
	mac.Write(d.Body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(d.Header.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }
