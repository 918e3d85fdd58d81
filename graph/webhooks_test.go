package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/testsupport"
)

const webhookFields = `id url event headers createdAt updatedAt disabledAt`

// Webhooks through GraphQL: subscriptions with their rules, pages, deliveries and their
// attempts as the receiver saw them, events, redelivery and the signing secret.
func TestWebhooks(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	rc.Answer = func(d testsupport.Delivery) (int, time.Duration) {
		if d.Path == "/fail" {
			return 500, 0
		}
		return 200, 0
	}
	env := testsupport.New(t, rc.Route)
	g, other := caller(env, env.NewClient(t, "hooks-a").APIKey), caller(env, env.NewClient(t, "hooks-b").APIKey)
	const create = `mutation($in: WebhookInput!) { createWebhook(input: $in) { ` + webhookFields + ` } }`
	hook := func(event, path string, headers map[string]any) map[string]any {
		t.Helper()
		in := map[string]any{"event": event, "url": rc.URL + path}
		if headers != nil {
			in["headers"] = headers
		}
		return at(t, g.ok(t, create, map[string]any{"in": in}), "createWebhook").(map[string]any)
	}
	all := hook("all", "/all", map[string]any{"x-team": "dados"})
	if all["event"] != "all" || at(t, all, "headers.X-Team") != "dados" || all["disabledAt"] != nil || !testsupport.IsAPITime(all["createdAt"]) {
		t.Fatalf("created %v", all)
	}
	failing := hook("item/created", "/fail", nil)
	spare := hook("item/deleted", "/spare", nil)
	allID, failID, spareID := all["id"].(string), failing["id"].(string), spare["id"].(string)

	t.Run("rules of a subscription", func(t *testing.T) {
		for _, c := range []struct {
			in   map[string]any
			code string
		}{
			{map[string]any{"event": "all", "url": "http://hooks.example.com/x"}, "INVALID_PARAMETER"},
			{map[string]any{"event": "all", "url": "https://10.0.0.1/x"}, "INVALID_PARAMETER"},
			{map[string]any{"event": "all"}, "INVALID_PARAMETER"},
			{map[string]any{"event": "item/exploded", "url": "https://hooks.example.com/x"}, "INVALID_WEBHOOK_EVENT"},
			{map[string]any{"event": "item/all", "url": "https://hooks.example.com/x"}, "INVALID_WEBHOOK_EVENT"},
			{map[string]any{"event": "all", "url": rc.URL + "/all"}, "WEBHOOK_ALREADY_EXISTS"},
			{map[string]any{"event": "all", "url": "https://hooks.example.com/x", "enabled": false}, "INVALID_PARAMETER"},
		} {
			g.fails(t, create, map[string]any{"in": c.in}, c.code, 400)
		}
		tok := str(t, g.ok(t, `mutation { createConnectToken { accessToken } }`, nil), "createConnectToken.accessToken")
		caller(env, tok).fails(t, `{ webhooks { total } }`, nil, "FORBIDDEN", 403)
		caller(env, tok).fails(t, create, map[string]any{"in": map[string]any{"event": "all", "url": "https://hooks.example.com/t"}}, "FORBIDDEN", 403)
	})

	t.Run("pages, oldest first", func(t *testing.T) {
		const q = `query($p: Int, $s: Int) { webhooks(page: $p, pageSize: $s) { total totalPages page results { id } } }`
		p1 := g.ok(t, q, map[string]any{"p": 1, "s": 2})
		p2 := g.ok(t, q, map[string]any{"p": 2, "s": 2})
		if num(t, p1, "webhooks.total") != 3 || num(t, p1, "webhooks.totalPages") != 2 || num(t, p2, "webhooks.page") != 2 ||
			!slices.Equal(append(ids(t, p1, "webhooks.results"), ids(t, p2, "webhooks.results")...), []string{allID, failID, spareID}) {
			t.Fatalf("pages %v %v", p1, p2)
		}
		if p3 := g.ok(t, q, map[string]any{"p": 3, "s": 2}); len(list(t, p3, "webhooks.results")) != 0 || num(t, p3, "webhooks.total") != 3 {
			t.Fatalf("past the last page %v", p3)
		}
		if d := g.ok(t, q, nil); num(t, d, "webhooks.page") != 1 || len(list(t, d, "webhooks.results")) != 3 {
			t.Fatalf("default page %v", d)
		}
		for _, v := range []map[string]any{{"p": 0}, {"s": 0}, {"s": 501}, {"p": 10_000_001}} {
			g.fails(t, q, v, "INVALID_PARAMETER", 400)
		}
		if d := other.ok(t, q, nil); num(t, d, "webhooks.total") != 0 {
			t.Fatalf("another application's webhooks %v", d)
		}
	})

	// An item makes events: item/created goes to /all and /fail, the rest to /all.
	item := str(t, newItem(t, g, 0, map[string]any{"user": "user-ok", "password": "password-ok"}), "id")
	events := env.Events(t, g.key, item)
	var created string
	for _, e := range events {
		if e["event"] == "item/created" {
			created = e["id"].(string)
		}
	}
	if created == "" {
		t.Fatalf("no item/created among %v", testsupport.EventNames(events))
	}
	rc.Await(t, "item/created at /all", 20*time.Second, func([]testsupport.Delivery) bool { return len(rc.Of("item/created", "/all")) == 1 })

	t.Run("deliveries and attempts", func(t *testing.T) {
		const q = `query($id: UUID!) { webhookDeliveries(webhookId: $id) { total page results { id eventId event webhookId url status attempts deliveredAt
			attemptLog { attempt statusCode url latencyMs error response } } } }`
		var d map[string]any
		testsupport.Eventually(t, "the failed attempt to be recorded", 20*time.Second, func() bool {
			d = g.ok(t, q, map[string]any{"id": failID})
			return num(t, d, "webhookDeliveries.total") == 1 && len(list(t, d, "webhookDeliveries.results.0.attemptLog")) > 0
		})
		f := at(t, d, "webhookDeliveries.results.0").(map[string]any)
		if f["eventId"] != created || f["webhookId"] != failID || f["status"] != "PENDING" || f["deliveredAt"] != nil ||
			at(t, f, "attemptLog.0.statusCode") != 500.0 || at(t, f, "attemptLog.0.attempt") != 1.0 || !strings.HasSuffix(str(t, f, "attemptLog.0.url"), "/fail") {
			t.Fatalf("failing delivery %v", f)
		}
		testsupport.Eventually(t, "the deliveries to /all to be recorded as delivered", 20*time.Second, func() bool {
			d = g.ok(t, q, map[string]any{"id": allID})
			for i := range list(t, d, "webhookDeliveries.results") {
				if str(t, d, fmt.Sprintf("webhookDeliveries.results.%d.status", i)) != "DELIVERED" {
					return false
				}
			}
			return int(num(t, d, "webhookDeliveries.total")) == len(events)
		})
		if at(t, d, "webhookDeliveries.results.0.attemptLog.0.statusCode") != 200.0 || !testsupport.IsAPITime(at(t, d, "webhookDeliveries.results.0.deliveredAt")) ||
			!strings.Contains(str(t, d, "webhookDeliveries.results.0.attemptLog.0.response"), "received") {
			t.Fatalf("delivered %v", at(t, d, "webhookDeliveries.results.0"))
		}
		other.fails(t, q, map[string]any{"id": allID}, "WEBHOOK_NOT_FOUND", 404)

		// The event with every delivery it made, alone and in the list.
		ev := g.ok(t, `query($id: UUID!) { event(id: $id) { id event payload deliveries { webhookId status } } }`, map[string]any{"id": created})
		var to []string
		for i := range list(t, ev, "event.deliveries") {
			to = append(to, str(t, ev, fmt.Sprintf("event.deliveries.%d.webhookId", i)))
		}
		slices.Sort(to)
		want := []string{allID, failID}
		slices.Sort(want)
		if !slices.Equal(to, want) || at(t, ev, "event.payload.itemId") != item || at(t, ev, "event.payload.eventId") != created {
			t.Fatalf("event %v", ev)
		}
		listed := g.ok(t, `{ events { id deliveries { id } } }`, nil)
		for i := range list(t, listed, "events") {
			if str(t, listed, fmt.Sprintf("events.%d.id", i)) == created && len(list(t, listed, fmt.Sprintf("events.%d.deliveries", i))) != 2 {
				t.Fatalf("events list %v", listed)
			}
		}
		g.fails(t, `query($id: UUID!) { event(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "EVENT_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { event(id: $id) { id } }`, map[string]any{"id": created}, "EVENT_NOT_FOUND", 404)
	})

	t.Run("redelivery", func(t *testing.T) {
		// An event every delivery of which succeeded, then one whose delivery to /fail is
		// still being retried: each goes to every URL it went to, under its own id.
		for _, name := range []string{"item/login_succeeded", "item/created"} {
			var id string
			for _, e := range events {
				if e["event"] == name {
					id = e["id"].(string)
				}
			}
			// Redelivered as soon as the delivery to /all has ended: the moment its job still
			// reads as running must not swallow the redelivery (webhooks' enqueueAgain).
			testsupport.Eventually(t, "the delivery of "+name+" to /all", 20*time.Second, func() bool {
				ev := g.ok(t, `query($id: UUID!) { event(id: $id) { deliveries { url deliveredAt } } }`, map[string]any{"id": id})
				for i := range list(t, ev, "event.deliveries") {
					if strings.HasSuffix(str(t, ev, fmt.Sprintf("event.deliveries.%d.url", i)), "/all") {
						return at(t, ev, fmt.Sprintf("event.deliveries.%d.deliveredAt", i)) != nil
					}
				}
				return false
			})
			before := len(rc.Of(name, "/all"))
			d := g.ok(t, `mutation($id: UUID!) { redeliverEvent(id: $id) { id event } }`, map[string]any{"id": id})
			if at(t, d, "redeliverEvent.id") != id || at(t, d, "redeliverEvent.event") != name {
				t.Fatalf("redelivered %v", d)
			}
			rc.Await(t, "the redelivery of "+name+" to /all", 20*time.Second, func([]testsupport.Delivery) bool { return len(rc.Of(name, "/all")) > before })
			again := rc.Of(name, "/all")
			if got := again[len(again)-1].Header.Get("webhook-id"); got != id {
				t.Fatalf("redelivery carries webhook-id %q, want %s", got, id)
			}
		}
		other.fails(t, `mutation($id: UUID!) { redeliverEvent(id: $id) { id } }`, map[string]any{"id": created}, "EVENT_NOT_FOUND", 404)
	})

	t.Run("update, disable and delete", func(t *testing.T) {
		const update = `mutation($id: UUID!, $in: WebhookInput!) { updateWebhook(id: $id, input: $in) { ` + webhookFields + ` } }`
		d := g.ok(t, update, map[string]any{"id": spareID, "in": map[string]any{"enabled": false, "event": "item/error"}})
		if at(t, d, "updateWebhook.disabledAt") == nil || at(t, d, "updateWebhook.event") != "item/error" || at(t, d, "updateWebhook.url") != spare["url"] {
			t.Fatalf("disabled %v", d)
		}
		d = g.ok(t, update, map[string]any{"id": spareID, "in": map[string]any{"enabled": true, "headers": map[string]any{"a": "b"}}})
		if at(t, d, "updateWebhook.disabledAt") != nil || at(t, d, "updateWebhook.headers.A") != "b" {
			t.Fatalf("enabled %v", d)
		}
		// Left out, the headers stay; given as null, they go (this was lost on /graphql).
		if d = g.ok(t, update, map[string]any{"id": spareID, "in": map[string]any{"event": "item/created"}}); at(t, d, "updateWebhook.headers.A") != "b" {
			t.Fatalf("headers left out were changed: %v", d)
		}
		if d = g.ok(t, update, map[string]any{"id": spareID, "in": map[string]any{"headers": nil}}); len(at(t, d, "updateWebhook.headers").(map[string]any)) != 0 {
			t.Fatalf("headers: null kept them: %v", d)
		}
		g.ok(t, update, map[string]any{"id": spareID, "in": map[string]any{"headers": map[string]any{"c": "d"}}})
		if d = g.ok(t, `mutation($id: UUID!) { updateWebhook(id: $id, input: {headers: null}) { headers } }`, map[string]any{"id": spareID}); len(at(t, d, "updateWebhook.headers").(map[string]any)) != 0 {
			t.Fatalf("an inline headers: null: %v", d)
		}
		g.fails(t, update, map[string]any{"id": spareID, "in": map[string]any{"url": "http://hooks.example.com"}}, "INVALID_PARAMETER", 400)
		g.fails(t, update, map[string]any{"id": spareID, "in": map[string]any{"event": "all", "url": rc.URL + "/all"}}, "WEBHOOK_ALREADY_EXISTS", 400)
		other.fails(t, update, map[string]any{"id": spareID, "in": map[string]any{"enabled": false}}, "WEBHOOK_NOT_FOUND", 404)

		one := g.ok(t, `query($id: UUID!) { webhook(id: $id) { `+webhookFields+` } }`, map[string]any{"id": allID})
		if at(t, one, "webhook.url") != all["url"] || at(t, one, "webhook.headers.X-Team") != "dados" {
			t.Fatalf("webhook %v", one)
		}
		const del = `mutation($id: UUID!) { deleteWebhook(id: $id) { id event } }`
		other.fails(t, del, map[string]any{"id": spareID}, "WEBHOOK_NOT_FOUND", 404)
		if d := g.ok(t, del, map[string]any{"id": spareID}); at(t, d, "deleteWebhook.id") != spareID {
			t.Fatalf("deleted %v", d)
		}
		g.fails(t, `query($id: UUID!) { webhook(id: $id) { id } }`, map[string]any{"id": spareID}, "WEBHOOK_NOT_FOUND", 404)
		g.fails(t, del, map[string]any{"id": spareID}, "WEBHOOK_NOT_FOUND", 404)
		g.fails(t, `{ webhook(id: "x") { id } }`, nil, "INVALID_REQUEST", 400)
	})

	t.Run("signing secret and its rotation", func(t *testing.T) {
		const read = `{ webhookSigningSecret { secret previousSecret previousExpiresAt } }`
		first := g.ok(t, read, nil)
		old := str(t, first, "webhookSigningSecret.secret")
		if !strings.HasPrefix(old, "whsec_") || at(t, first, "webhookSigningSecret.previousSecret") != nil {
			t.Fatalf("secret %v", first)
		}
		if str(t, other.ok(t, read, nil), "webhookSigningSecret.secret") == old {
			t.Fatal("two applications share a signing secret")
		}
		r := g.ok(t, `mutation { rotateWebhookSigningSecret { secret previousSecret previousExpiresAt } }`, nil)
		exp, err := time.Parse(time.RFC3339, str(t, r, "rotateWebhookSigningSecret.previousExpiresAt"))
		if err != nil || str(t, r, "rotateWebhookSigningSecret.secret") == old || at(t, r, "rotateWebhookSigningSecret.previousSecret") != old ||
			exp.Sub(time.Now()) < 23*time.Hour || exp.Sub(time.Now()) > 25*time.Hour {
			t.Fatalf("rotated %v", r)
		}
		if now := g.ok(t, read, nil); at(t, now, "webhookSigningSecret.secret") != at(t, r, "rotateWebhookSigningSecret.secret") {
			t.Fatalf("after the rotation %v", now)
		}
	})
}
