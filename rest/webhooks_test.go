package rest_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// verifySignature checks a delivery the way docs/webhooks.md tells receivers to, written apart
// from the service's code: HMAC-SHA256 of "webhook-id.webhook-timestamp.body" with the
// base64 key of the whsec_ secret, against any v1 signature of the header.
func verifySignature(t *testing.T, secret string, d testsupport.Delivery) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	id, ts := d.Header.Get("webhook-id"), d.Header.Get("webhook-timestamp")
	sent, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sent, 0)).Abs() > 5*time.Minute {
		t.Fatalf("webhook-timestamp %q is not a current Unix time", ts)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(d.Body)
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(d.Header.Get("webhook-signature")) {
		if v, ok := strings.CutPrefix(sig, "v1,"); ok && hmac.Equal([]byte(v), []byte(want)) {
			return
		}
	}
	t.Fatalf("no valid signature in %q for %s", d.Header.Get("webhook-signature"), d.Body)
}

// The Standard Webhooks test vector.
func TestWebhookSignatureVector(t *testing.T) {
	t.Parallel()
	key, err := webhooks.SecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := webhooks.Sign([][]byte{key}, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", []byte(`{"test": 2432232314}`))
	if got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature %s", got)
	}
}

func TestWebhookSubscriptions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "webhooks").APIKey

	created := env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/created", "url": "https://hooks.example.com/ponte",
		"headers": map[string]any{"authorization": "Bearer abc"}}).Want(200).Map()
	id := created["id"].(string)
	if created["url"] != "https://hooks.example.com/ponte" || created["event"] != "item/created" || created["disabledAt"] != nil ||
		created["headers"].(map[string]any)["Authorization"] != "Bearer abc" || created["createdAt"] != created["updatedAt"] {
		t.Fatalf("created %v", created)
	}
	for _, f := range []string{"createdAt", "updatedAt"} {
		if !testsupport.IsAPITime(created[f]) {
			t.Fatalf("%s %v", f, created[f])
		}
	}

	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			name string
			body map[string]any
			code string
			says string
		}{
			{"plain http", map[string]any{"event": "all", "url": "http://hooks.example.com/x"}, "INVALID_PARAMETER", "https"},
			{"a developer's receiver", map[string]any{"event": "all", "url": "http://localhost:3000/hooks"}, "INVALID_PARAMETER", "PONTE_ALLOW_INSECURE_WEBHOOKS=1"},
			{"localhost", map[string]any{"event": "all", "url": "https://localhost/x"}, "INVALID_PARAMETER", "localhost"},
			{"a localhost subdomain", map[string]any{"event": "all", "url": "https://api.localhost/x"}, "INVALID_PARAMETER", "localhost"},
			{"bare IPv4", map[string]any{"event": "all", "url": "https://10.0.0.1/x"}, "INVALID_PARAMETER", "IP address"},
			{"bare IPv6", map[string]any{"event": "all", "url": "https://[::1]/x"}, "INVALID_PARAMETER", "IP address"},
			{"credentials in the URL", map[string]any{"event": "all", "url": "https://u:p@hooks.example.com/x"}, "INVALID_PARAMETER", "password"},
			{"not a URL", map[string]any{"event": "all", "url": "hooks"}, "INVALID_PARAMETER", "absolute"},
			{"no url", map[string]any{"event": "all"}, "INVALID_PARAMETER", "url is required"},
			{"no event", map[string]any{"url": "https://hooks.example.com/x"}, "INVALID_PARAMETER", "event is required"},
			{"unknown event", map[string]any{"event": "item/exploded", "url": "https://hooks.example.com/x"}, "INVALID_WEBHOOK_EVENT", "item/exploded"},
			{"item/all", map[string]any{"event": "item/all", "url": "https://hooks.example.com/x"}, "INVALID_WEBHOOK_EVENT", "subscribe to all"},
			{"duplicate", map[string]any{"event": "item/created", "url": "https://hooks.example.com/ponte"}, "WEBHOOK_ALREADY_EXISTS", "already exists"},
			{"reserved header", map[string]any{"event": "all", "url": "https://hooks.example.com/x", "headers": map[string]any{"webhook-signature": "x"}}, "INVALID_PARAMETER", "cannot be replaced"},
			{"header not a string", map[string]any{"event": "all", "url": "https://hooks.example.com/x", "headers": map[string]any{"x-n": 1}}, "INVALID_PARAMETER", "string"},
			{"enabled on create", map[string]any{"event": "all", "url": "https://hooks.example.com/x", "enabled": false}, "INVALID_PARAMETER", "updating"},
		}
		for _, c := range cases {
			m := env.Do(t, "POST", "/webhooks", key, c.body).WantError(400, c.code)
			if !strings.Contains(m["message"].(string), c.says) {
				t.Fatalf("%s: message %q does not say %q", c.name, m["message"], c.says)
			}
		}
		env.Do(t, "GET", "/webhooks/nope", key, nil).WantError(400, "INVALID_PARAMETER")
		env.Do(t, "GET", "/webhooks/"+uuid.NewString(), key, nil).WantError(404, "WEBHOOK_NOT_FOUND")
		other := env.NewClient(t, "webhooks-other").APIKey
		env.Do(t, "GET", "/webhooks/"+id, other, nil).WantError(404, "WEBHOOK_NOT_FOUND")
		tok := env.Do(t, "POST", "/connect_token", key, nil).Want(200).String("accessToken")
		env.Do(t, "GET", "/webhooks", tok, nil).WantError(403, "FORBIDDEN")
	})

	t.Run("update, disable, enable, list and delete", func(t *testing.T) {
		clockPast(t, created["updatedAt"]) // so updatedAt can move past createdAt
		up := env.Do(t, "PATCH", "/webhooks/"+id, key, map[string]any{"event": "all", "enabled": false}).Want(200).Map()
		if up["event"] != "all" || up["disabledAt"] == nil || up["url"] != created["url"] || up["updatedAt"] == created["updatedAt"] ||
			up["headers"].(map[string]any)["Authorization"] != "Bearer abc" {
			t.Fatalf("updated %v", up)
		}
		up = env.Do(t, "PATCH", "/webhooks/"+id, key, map[string]any{"enabled": true, "headers": nil}).Want(200).Map()
		if up["disabledAt"] != nil || len(up["headers"].(map[string]any)) != 0 {
			t.Fatalf("enabled again, headers cleared: %v", up)
		}
		env.Do(t, "PATCH", "/webhooks/"+id, key, map[string]any{"url": "http://hooks.example.com"}).WantError(400, "INVALID_PARAMETER")
		second := env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/error", "url": "https://hooks.example.com/ponte"}).Want(200).Map()
		env.Do(t, "PATCH", "/webhooks/"+second["id"].(string), key, map[string]any{"event": "all"}).WantError(400, "WEBHOOK_ALREADY_EXISTS")
		list := env.Do(t, "GET", "/webhooks", key, nil).Want(200).Map()
		if list["total"] != float64(2) || len(list["results"].([]any)) != 2 || list["page"] != float64(1) {
			t.Fatalf("list %v", list)
		}
		gone := env.Do(t, "DELETE", "/webhooks/"+second["id"].(string), key, nil).Want(200).Map()
		if gone["id"] != second["id"] {
			t.Fatalf("deleted %v", gone)
		}
		env.Do(t, "GET", "/webhooks/"+second["id"].(string), key, nil).WantError(404, "WEBHOOK_NOT_FOUND")
	})

	t.Run("GraphQL uses the same rules", func(t *testing.T) {
		g := env.GraphQL(t, key, `mutation { createWebhook(input: {event: "transactions/created", url: "https://gql.example.com/h", headers: {a: "b"}}) { id event headers disabledAt } }`, nil).OK(t)
		w := g["createWebhook"].(map[string]any)
		if w["headers"].(map[string]any)["A"] != "b" {
			t.Fatalf("GraphQL webhook %v", w)
		}
		env.GraphQL(t, key, `mutation { createWebhook(input: {event: "item/all", url: "https://gql.example.com/h"}) { id } }`, nil).WantCode(t, "INVALID_WEBHOOK_EVENT")
		l := env.GraphQL(t, key, `{ webhooks { total results { id url } } }`, nil).OK(t)
		if l["webhooks"].(map[string]any)["total"] != float64(2) {
			t.Fatalf("GraphQL list %v", l)
		}
	})

	t.Run("the insecure switch is for development only", func(t *testing.T) {
		dev := testsupport.New(t, func(s *testsupport.Setup) { s.Webhooks.AllowInsecure = true })
		k := dev.NewClient(t, "dev").APIKey
		dev.Do(t, "POST", "/webhooks", k, map[string]any{"event": "all", "url": "http://127.0.0.1:9/hook"}).Want(200)
		dev.Do(t, "POST", "/webhooks", k, map[string]any{"event": "all", "url": "http://localhost:9/hook"}).Want(200)
		dev.Do(t, "POST", "/webhooks", k, map[string]any{"event": "all", "url": "http://u:p@localhost:9/hook"}).WantError(400, "INVALID_PARAMETER")
		// Without the switch a resource's own webhookUrl follows the same rules.
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams, "webhookUrl": "http://127.0.0.1:9/x"}).WantError(400, "INVALID_PARAMETER")
	})
}

// events is the payload of each event name a receiver got, for one path.
func byEvent(got []testsupport.Delivery, path string) map[string][]testsupport.Delivery {
	out := map[string][]testsupport.Delivery{}
	for _, d := range got {
		if d.Path == path {
			out[d.Payload["event"].(string)] = append(out[d.Payload["event"].(string)], d)
		}
	}
	return out
}

func TestWebhookEvents(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	client := env.NewClient(t, "webhook-events")
	key := client.APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/all", "headers": map[string]any{"X-Team": "payments"}}).Want(200)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/created", "url": rc.URL + "/created"}).Want(200)
	secret := env.Do(t, "GET", "/webhooks/signing-secret", key, nil).Want(200).String("secret")
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q", secret)
	}

	// A Connect Token's webhookUrl gets every event of the items created with it.
	tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"webhookUrl": rc.URL + "/token", "clientUserId": "user-42"}}).
		Want(200).String("accessToken")
	var it model.Item
	env.Do(t, "POST", "/items", tok, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok-perf-1", "password": "password-ok"}}).Want(200).JSON(&it)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	// An update changes transactions: created, updated and deleted ones.
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	// An item without clientUserId, an error, MFA, a user action, a deletion and a connector.
	plain := createItem(t, env, key, 0, map[string]any{"user": "someone-else", "password": "password-ok"})
	mfa := createItem(t, env, key, 1, map[string]any{"user": "user-ok", "password": "password-ok"})
	qr := createItem(t, env, key, 0, map[string]any{"user": "user-ok-qr", "password": "password-ok"})
	for _, x := range []*model.Item{plain, mfa, qr} {
		env.WaitItem(t, key, x.ID.String(), testsupport.Settled)
	}
	env.Do(t, "DELETE", "/items/"+plain.ID.String(), key, nil).Want(200)
	if _, err := env.Webhooks.SetConnectorStatus(t.Context(), 3, model.HealthUnstable); err != nil {
		t.Fatal(err)
	}

	recorded := env.Events(t, key, "")
	got := rc.Await(t, "every recorded event at /all", 30*time.Second, func(got []testsupport.Delivery) bool {
		seen := map[string]bool{}
		for _, d := range got {
			if d.Path == "/all" {
				seen[d.Header.Get("webhook-id")] = true
			}
		}
		for _, e := range recorded {
			if !seen[e["id"].(string)] {
				return false
			}
		}
		return true
	})
	all, viaToken := byEvent(got, "/all"), byEvent(got, "/token")
	for _, name := range []string{"item/created", "item/updated", "item/login_succeeded", "item/error", "item/deleted", "item/waiting_user_input",
		"item/waiting_user_action", "transactions/created", "transactions/updated", "transactions/deleted", "connector/status_updated"} {
		if len(all[name]) == 0 {
			t.Errorf("no %s delivered; got %v", name, keys(all))
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	t.Run("every delivery is signed and carries its headers", func(t *testing.T) {
		for _, d := range got {
			verifySignature(t, secret, d)
			if d.Header.Get("webhook-id") != d.Payload["eventId"] || d.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("headers %v for %s", d.Header, d.Body)
			}
			// Custom headers go to the webhook resource only.
			if (d.Header.Get("X-Team") == "payments") != (d.Path == "/all") {
				t.Fatalf("X-Team %q on %s", d.Header.Get("X-Team"), d.Path)
			}
		}
	})

	t.Run("payloads follow section 6.2", func(t *testing.T) {
		for name, list := range all {
			for _, d := range list {
				p := d.Payload
				if _, err := uuid.Parse(fmt.Sprint(p["eventId"])); err != nil || p["event"] != name {
					t.Fatalf("%s: %v", name, p)
				}
				_, hasUser := p["clientUserId"]
				switch {
				case strings.HasPrefix(name, "item/"):
					if !hasUser || p["itemId"] == nil || p["id"] != p["itemId"] {
						t.Fatalf("%s lacks clientUserId or itemId: %v", name, p)
					}
					if tb := fmt.Sprint(p["triggeredBy"]); name != "item/deleted" && !slices.Contains([]string{"USER", "CLIENT", "SYNC", "INTERNAL"}, tb) {
						t.Fatalf("%s triggeredBy %q", name, tb)
					}
				case strings.HasPrefix(name, "transactions/"):
					if hasUser || p["itemId"] != id || p["accountId"] == nil {
						t.Fatalf("%s: %v", name, p)
					}
				}
			}
		}
		for _, d := range all["item/created"] {
			want := any(nil)
			if d.Payload["itemId"] == id {
				want = "user-42"
			}
			if d.Payload["clientUserId"] != want {
				t.Fatalf("clientUserId %v on %v", d.Payload["clientUserId"], d.Payload)
			}
		}
		e := all["item/error"][0].Payload["error"].(map[string]any)
		if e["code"] != "INVALID_CREDENTIALS" || e["message"] == "" {
			t.Fatalf("item/error error %v", e)
		}
		for _, name := range []string{"transactions/updated", "transactions/deleted"} {
			ids := all[name][0].Payload["transactionIds"].([]any)
			if len(ids) == 0 || all[name][0].Payload["clientId"] != client.ID {
				t.Fatalf("%s: %v", name, all[name][0].Payload)
			}
		}
		c := all["connector/status_updated"][0].Payload
		if c["connectorId"] != "3" || c["id"] != "3" || c["data"].(map[string]any)["status"] != "UNSTABLE" {
			t.Fatalf("connector/status_updated %v", c)
		}
	})

	t.Run("createdTransactionsLink returns the created transactions", func(t *testing.T) {
		// The link filters on createdAtFrom (the only filter the spec gives it), so an
		// account's latest event lists exactly its rows and earlier ones also later rows.
		latest := map[any]testsupport.Delivery{}
		for _, d := range all["transactions/created"] {
			p := d.Payload
			if !strings.HasPrefix(p["createdTransactionsLink"].(string), env.URL+createdLinkPath(time.Now())+"?") || !testsupport.IsAPITime(p["transactionsCreatedAtFrom"]) ||
				!testsupport.IsAPITime(p["transactionsMinDate"]) {
				t.Fatalf("transactions/created %v", p)
			}
			if prev, ok := latest[p["accountId"]]; !ok || prev.Payload["transactionsCreatedAtFrom"].(string) < p["transactionsCreatedAtFrom"].(string) {
				latest[p["accountId"]] = d
			}
		}
		for _, d := range all["transactions/created"] {
			p := d.Payload
			link := p["createdTransactionsLink"].(string)
			rows := readCreatedLink(t, env, key, link)
			count := p["transactionsCount"].(float64)
			if float64(len(rows)) < count || (latest[p["accountId"]].Header.Get("webhook-id") == d.Header.Get("webhook-id") && float64(len(rows)) != count) {
				t.Fatalf("%s returns %d transactions, the event counts %v", link, len(rows), count)
			}
			for _, r := range rows {
				if r.Date.Before(mustTime(t, p["transactionsMinDate"].(string))) && float64(len(rows)) == count {
					t.Fatalf("row dated %s before transactionsMinDate %s", r.Date, p["transactionsMinDate"])
				}
			}
		}
	})

	t.Run("one event, one eventId, every URL", func(t *testing.T) {
		created := all["item/created"]
		var ours testsupport.Delivery
		for _, d := range created {
			if d.Payload["itemId"] == id {
				ours = d
			}
		}
		n := 0
		for _, d := range got {
			if d.Header.Get("webhook-id") == ours.Header.Get("webhook-id") {
				n++
				if string(d.Body) != string(ours.Body) {
					t.Fatalf("bodies differ between URLs")
				}
			}
		}
		if n != 3 || len(rc.Of("item/created", "/created")) != len(created) || len(viaToken["item/created"]) != 1 {
			t.Fatalf("item/created went to %d URLs", n)
		}
		// The token's URL gets only its item's events.
		for name, list := range viaToken {
			for _, d := range list {
				if d.Payload["itemId"] != id {
					t.Fatalf("%s of another item at the token's URL", name)
				}
			}
		}
	})

	t.Run("deliveries are recorded and readable", func(t *testing.T) {
		hooks := env.Do(t, "GET", "/webhooks", key, nil).Want(200).Map()["results"].([]any)
		var allID string
		for _, h := range hooks {
			if h.(map[string]any)["event"] == "all" {
				allID = h.(map[string]any)["id"].(string)
			}
		}
		page := env.Do(t, "GET", "/webhooks/"+allID+"/deliveries?pageSize=5", key, nil).Want(200).Map()
		if page["total"].(float64) < float64(len(recorded)) || len(page["results"].([]any)) != 5 {
			t.Fatalf("deliveries page %v", page["total"])
		}
		d := page["results"].([]any)[0].(map[string]any)
		log := d["attemptLog"].([]any)
		if d["status"] != "DELIVERED" || len(log) != 1 || log[0].(map[string]any)["statusCode"] != float64(200) ||
			log[0].(map[string]any)["response"] != `{"received":true}` || !testsupport.IsAPITime(d["deliveredAt"]) {
			t.Fatalf("delivery %v", d)
		}
		ev := env.Do(t, "GET", "/events/"+d["eventId"].(string), key, nil).Want(200).Map()
		if len(ev["deliveries"].([]any)) == 0 {
			t.Fatalf("event %v", ev)
		}
		g := env.GraphQL(t, key, `query($id: UUID) { events(itemId: $id) { id event deliveries { url status attempts attemptLog { statusCode latencyMs } } } }`,
			map[string]any{"id": id}).OK(t)
		for _, e := range g["events"].([]any) {
			if len(e.(map[string]any)["deliveries"].([]any)) < 2 {
				t.Fatalf("GraphQL event deliveries %v", e)
			}
		}
		if n := env.GraphQL(t, key, `query($id: UUID) { events(itemId: $id) { deliveries { id } } }`, map[string]any{"id": id}).Extensions["sqlStatements"]; n.(float64) > 5 {
			t.Fatalf("deliveries of a list of events took %v statements", n)
		}
		env.Do(t, "GET", "/events/"+uuid.NewString(), key, nil).WantError(404, "EVENT_NOT_FOUND")
	})
}

func mustTime(t *testing.T, s string) time.Time {
	v, err := model.ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return v.Time
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// failingEnv is a service whose deliveries go to a receiver answering status, with a
// schedule of milliseconds.
func failingEnv(t *testing.T, variant webhooks.Variant, schedule, short []time.Duration, answer func(testsupport.Delivery) (int, time.Duration)) (*testsupport.Env, *testsupport.Receiver, string) {
	rc := testsupport.NewTLSReceiver(t)
	rc.Answer = answer
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.Variant, s.Webhooks.Schedule, s.Webhooks.ShortSchedule = variant, schedule, short
		s.Webhooks.Timeout = 300 * time.Millisecond
	})
	key := env.NewClient(t, "retries").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/hook"}).Want(200)
	return env, rc, key
}

func attemptTimes(list []testsupport.Delivery) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(list); i++ {
		out = append(out, list[i].At.Sub(list[i-1].At))
	}
	return out
}

func TestWebhookRetries(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	always := func(code int) func(testsupport.Delivery) (int, time.Duration) {
		return func(testsupport.Delivery) (int, time.Duration) { return code, 0 }
	}

	t.Run("variant A: nine attempts, three for item/login_succeeded", func(t *testing.T) {
		t.Parallel()
		schedule := []time.Duration{0, 0, 400 * ms, 0, 0, 800 * ms, 0, 0}
		env, rc, key := failingEnv(t, webhooks.VariantA, schedule, schedule[:2], always(500))
		it := createItem(t, env, key, 0, okParams)
		created := func() []testsupport.Delivery { return rc.Of("item/created", "") }
		rc.Await(t, "nine attempts of item/created", 20*time.Second, func([]testsupport.Delivery) bool { return len(created()) >= 9 })
		rc.Await(t, "three attempts of item/login_succeeded", 5*time.Second, func([]testsupport.Delivery) bool {
			return len(rc.Of("item/login_succeeded", "")) >= 3
		})
		// Nothing more comes: once no delivery is left to send, the counts are final.
		awaitDeliveriesDone(t, env, key, it.ID.String())
		list := created()
		if len(list) != 9 || len(rc.Of("item/login_succeeded", "")) != 3 {
			t.Fatalf("%d attempts of item/created, %d of item/login_succeeded", len(list), len(rc.Of("item/login_succeeded", "")))
		}
		gaps := attemptTimes(list)
		for i, g := range gaps {
			if g < schedule[i] {
				t.Fatalf("attempt %d came %s after the one before, the schedule says %s", i+2, g, schedule[i])
			}
		}
		for _, d := range list {
			if d.Header.Get("webhook-id") != list[0].Header.Get("webhook-id") {
				t.Fatal("retries of one event carry different ids")
			}
		}
		ev := env.Events(t, key, it.ID.String())
		var eid string
		for _, e := range ev {
			if e["event"] == "item/created" {
				eid = e["id"].(string)
			}
		}
		d := env.Do(t, "GET", "/events/"+eid, key, nil).Want(200).Map()["deliveries"].([]any)[0].(map[string]any)
		if d["status"] != "FAILED" || d["attempts"] != float64(9) || len(d["attemptLog"].([]any)) != 9 {
			t.Fatalf("delivery %v", d)
		}

		// Redelivery starts the schedule over; the receiver now answers.
		rc.Answer = nil
		env.Do(t, "POST", "/events/"+eid+"/redeliver", key, nil).Want(200)
		rc.Await(t, "the redelivery", 10*time.Second, func([]testsupport.Delivery) bool { return len(created()) == 10 })
		var after map[string]any
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			after = env.Do(t, "GET", "/events/"+eid, key, nil).Want(200).Map()["deliveries"].([]any)[0].(map[string]any)
			if after["status"] == "DELIVERED" {
				break
			}
			time.Sleep(20 * ms)
		}
		if after["status"] != "DELIVERED" || len(after["attemptLog"].([]any)) != 10 {
			t.Fatalf("after redelivery %v", after)
		}
		env.Do(t, "POST", "/events/"+uuid.NewString()+"/redeliver", key, nil).WantError(404, "EVENT_NOT_FOUND")
	})

	t.Run("variant B: three attempts, none after a 404", func(t *testing.T) {
		t.Parallel()
		var code atomic.Int64
		code.Store(404)
		env, rc, key := failingEnv(t, webhooks.VariantB, []time.Duration{300 * ms, 600 * ms}, []time.Duration{100 * ms, 100 * ms},
			func(d testsupport.Delivery) (int, time.Duration) { return int(code.Load()), 0 })
		first := createItem(t, env, key, 0, okParams).ID.String()
		awaitDeliveriesDone(t, env, key, first)
		if n := len(rc.Of("item/created", "")); n != 1 {
			t.Fatalf("a 404 was retried: %d attempts", n)
		}
		code.Store(503)
		second := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-1", "password": "password-ok"}).ID.String()
		awaitDeliveriesDone(t, env, key, second)
		again := rc.Of("item/created", "")[1:]
		if len(again) != 3 {
			t.Fatalf("%d attempts after 503s", len(again))
		}
		if g := attemptTimes(again); g[0] < 300*ms || g[1] < 600*ms {
			t.Fatalf("gaps %v, schedule 300ms, 600ms", g)
		}
		var login []testsupport.Delivery
		for _, d := range rc.Of("item/login_succeeded", "") {
			if d.Payload["itemId"] == second {
				login = append(login, d)
			}
		}
		if len(login) != 3 {
			t.Fatalf("item/login_succeeded attempts %d", len(login))
		}
	})

	t.Run("a slow receiver is cut at the time-out", func(t *testing.T) {
		t.Parallel()
		env, rc, key := failingEnv(t, webhooks.VariantB, []time.Duration{0, 0}, []time.Duration{0, 0},
			func(testsupport.Delivery) (int, time.Duration) { return 200, 2 * time.Second })
		it := createItem(t, env, key, 0, okParams)
		rc.Await(t, "three attempts", 10*time.Second, func([]testsupport.Delivery) bool { return len(rc.Of("item/created", "")) == 3 })
		var d map[string]any
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			for _, e := range env.Events(t, key, it.ID.String()) {
				if e["event"] == "item/created" {
					d = env.Do(t, "GET", "/events/"+e["id"].(string), key, nil).Want(200).Map()["deliveries"].([]any)[0].(map[string]any)
				}
			}
			if d != nil && d["status"] == "FAILED" {
				break
			}
			time.Sleep(50 * ms)
		}
		a := d["attemptLog"].([]any)[0].(map[string]any)
		if d["status"] != "FAILED" || a["statusCode"] != nil || !strings.Contains(fmt.Sprint(a["error"]), "no answer within 300ms") || a["latencyMs"].(float64) > 1500 {
			t.Fatalf("delivery %v", d)
		}
	})

	t.Run("a slow receiver does not hold up the others", func(t *testing.T) {
		t.Parallel()
		// The slow receiver answers nothing while the test runs, and its time-out is longer
		// than the test's wait: the fast receiver getting every event while the slow one
		// holds its host's slots is the proof, however slow a loaded machine makes both.
		slow := testsupport.NewTLSReceiver(t)
		release := make(chan struct{})
		slow.Answer = func(testsupport.Delivery) (int, time.Duration) { <-release; return 200, 0 }
		fast := testsupport.NewTLSReceiver(t)
		env := testsupport.New(t, func(s *testsupport.Setup) {
			testsupport.Route(s, slow, fast)
			s.Webhooks.Timeout = 5 * time.Minute
			s.Webhooks.PerHost = 2
		})
		// Answered before the service stops, which would otherwise wait out the time-out.
		t.Cleanup(func() { close(release) })
		key := env.NewClient(t, "slow").APIKey
		env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": slow.URL + "/slow"}).Want(200)
		env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": fast.URL + "/fast"}).Want(200)
		for i := range 6 {
			createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-1", "password": fmt.Sprint("password-", i)})
		}
		start := time.Now()
		slow.Await(t, "the slow receiver holding both of its host's slots", time.Minute, func(got []testsupport.Delivery) bool { return len(got) >= 2 })
		fast.Await(t, "six item/created at the fast receiver", time.Minute, func([]testsupport.Delivery) bool {
			return len(fast.Of("item/created", "")) == 6
		})
		if n := len(slow.Got()); n != 2 {
			t.Fatalf("the slow receiver, which has answered nothing, got %d requests; its host allows 2 at once", n)
		}
		t.Logf("fast receiver had every event %s after the last item was created, while the slow one held 2 requests", time.Since(start))
	})
}
