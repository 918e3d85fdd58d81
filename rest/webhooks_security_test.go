package rest_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// Names that resolve to private addresses pass the URL rules; the delivery refuses them when
// it connects. The test dialer sends every connection, to whatever address, to the receiver
// on loopback (whose certificate covers *.example.com), so only the address rules stand
// between a private target and it.
func TestWebhookTargetsRefusedAtDelivery(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.Resolver = testsupport.Resolver{
			"example.com":          {testsupport.ReceiverAddr},
			"loopback.example.com": {netip.MustParseAddr("127.0.0.1")},
			"private.example.com":  {netip.MustParseAddr("10.0.0.1")},
			"mapped.example.com":   {netip.MustParseAddr("::ffff:127.0.0.1")},
			"mixed.example.com":    {testsupport.ReceiverAddr, netip.MustParseAddr("169.254.169.254")},
		}
		s.Webhooks.Dial = func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, rc.Listener.Addr().String())
		}
		s.Webhooks.Schedule, s.Webhooks.ShortSchedule = []time.Duration{time.Millisecond}, []time.Duration{time.Millisecond}
	})
	key := env.NewClient(t, "ssrf").APIKey
	refused := map[string]string{ // path → the address the log must name
		"/loopback": "127.0.0.1", "/private": "10.0.0.1", "/mapped": "127.0.0.1", "/mixed": "169.254.169.254",
	}
	hooks := map[string]string{} // path → webhook id
	for path := range refused {
		u := fmt.Sprintf("https://%s.example.com:%s%s", strings.TrimPrefix(path, "/"), port, path)
		hooks[path] = env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "connector/status_updated", "url": u}).Want(200).String("id")
	}
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "connector/status_updated", "url": rc.URL + "/ok"}).Want(200)
	// A resource's own webhookUrl goes through the same dialer.
	itemURL := fmt.Sprintf("https://loopback.example.com:%s/item", port)
	itemID := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams, "webhookUrl": itemURL}).Want(200).String("id")
	env.WaitItem(t, key, itemID, testsupport.Settled)
	if _, err := env.Webhooks.SetConnectorStatus(t.Context(), 3, model.HealthUnstable); err != nil {
		t.Fatal(err)
	}
	rc.Await(t, "the public webhook's delivery", 10*time.Second, func([]testsupport.Delivery) bool {
		return len(rc.Of("connector/status_updated", "/ok")) == 1
	})

	failed := func(d any) bool { return d.(map[string]any)["status"] == "FAILED" }
	for path, id := range hooks {
		var list []any
		testsupport.Eventually(t, path+"'s delivery to fail", 10*time.Second, func() bool {
			list = env.Do(t, "GET", "/webhooks/"+id+"/deliveries", key, nil).Want(200).Map()["results"].([]any)
			return len(list) == 1 && failed(list[0])
		})
		checkRefusedLog(t, path, list[0], refused[path])
	}
	var itemDeliveries []any
	testsupport.Eventually(t, "the item's own deliveries to fail", 10*time.Second, func() bool {
		itemDeliveries = nil
		for _, e := range env.Events(t, key, itemID) {
			for _, d := range env.Do(t, "GET", "/events/"+e["id"].(string), key, nil).Want(200).Map()["deliveries"].([]any) {
				if d.(map[string]any)["url"] == itemURL {
					if !failed(d) {
						return false
					}
					itemDeliveries = append(itemDeliveries, d)
				}
			}
		}
		return len(itemDeliveries) > 0
	})
	for _, d := range itemDeliveries {
		checkRefusedLog(t, "/item", d, "127.0.0.1")
	}
	for _, d := range rc.Got() {
		if d.Path != "/ok" {
			t.Fatalf("the receiver got a delivery for %s", d.Path)
		}
	}
}

// checkRefusedLog wants every attempt of a delivery refused before connecting, naming addr,
// with no answer recorded.
func checkRefusedLog(t *testing.T, path string, delivery any, addr string) {
	t.Helper()
	d := delivery.(map[string]any)
	log := d["attemptLog"].([]any)
	if len(log) == 0 {
		t.Fatalf("%s: no attempts: %v", path, d)
	}
	for _, a := range log {
		a := a.(map[string]any)
		msg, _ := a["error"].(string)
		if a["statusCode"] != nil || a["response"] != nil || !strings.HasPrefix(msg, "address "+addr+" is not a public address") {
			t.Fatalf("%s: attempt %v", path, a)
		}
	}
}

// Every IP-literal spelling is refused where a URL that will receive events is given.
func TestWebhookURLSpellings(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "spellings").APIKey
	env.Recipient(t, key)
	spellings := []string{
		"https://127.1:8443/x", "https://0177.0.0.1/x", "https://0x7f.1/x", "https://2130706433/x", "https://10.1/x",
		"https://169.254.169.254/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://[::ffff:7f00:1]/x",
		"https://１２７.０.０.１/x", "https://metadata.google.internal/x", "https://printer.local/x", "https://a.localhost/x",
	}
	for _, u := range spellings {
		env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": u}).WantError(400, model.CodeInvalidParameter.String())
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams, "webhookUrl": u}).WantError(400, model.CodeInvalidParameter.String())
		env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"webhookUrl": u}}).WantError(400, model.CodeInvalidParameter.String())
		env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "webhookUrl": u}).WantError(400, model.CodeInvalidParameter.String())
	}
	env.GraphQL(t, key, `mutation { createWebhook(input: {event: "all", url: "https://0x7f.1/h"}) { id } }`, nil).WantCode(t, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://hooks.example.com/x"}).Want(200)
}

// Custom headers are sealed at rest, read by the owner and sent with each delivery, and no
// plaintext copy of them is stored anywhere.
func TestWebhookHeadersSealed(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	client := env.NewClient(t, "sealed")
	key := client.APIKey
	first, graph, changed, legacy := "Bearer first-"+uuid.NewString(), "gql-"+uuid.NewString(), "Bearer changed-"+uuid.NewString(), "legacy-"+uuid.NewString()

	id := env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "connector/status_updated", "url": rc.URL + "/sealed",
		"headers": map[string]any{"Authorization": first}}).Want(200).String("id")
	if h := env.Do(t, "GET", "/webhooks/"+id, key, nil).Want(200).Map()["headers"].(map[string]any); h["Authorization"] != first {
		t.Fatalf("the owner reads headers %v", h)
	}
	env.GraphQL(t, key, `mutation($h: Map) { createWebhook(input: {event: "item/created", url: "https://gql.example.com/h", headers: $h}) { id } }`,
		map[string]any{"h": map[string]any{"X-Token": graph}}).OK(t)
	if _, err := env.Webhooks.SetConnectorStatus(t.Context(), 3, model.HealthUnstable); err != nil {
		t.Fatal(err)
	}
	got := rc.Await(t, "the first delivery", 10*time.Second, func(d []testsupport.Delivery) bool { return len(d) == 1 })
	if got[0].Header.Get("Authorization") != first {
		t.Fatalf("delivery headers %v", got[0].Header)
	}
	for _, s := range []string{first, graph} {
		if where := plaintextIn(t, env, s); len(where) > 0 {
			t.Fatalf("%q stored in plain text in %v", s, where)
		}
	}

	// A delivery reads the headers when it is sent: a changed credential applies at once.
	env.Do(t, "PATCH", "/webhooks/"+id, key, map[string]any{"headers": map[string]any{"Authorization": changed}}).Want(200)
	if _, err := env.Webhooks.SetConnectorStatus(t.Context(), 3, model.HealthOnline); err != nil {
		t.Fatal(err)
	}
	got = rc.Await(t, "the second delivery", 10*time.Second, func(d []testsupport.Delivery) bool { return len(d) == 2 })
	if got[1].Header.Get("Authorization") != changed {
		t.Fatalf("delivery after the change carries %q", got[1].Header.Get("Authorization"))
	}
	if where := plaintextIn(t, env, changed); len(where) > 0 {
		t.Fatalf("changed header stored in plain text in %v", where)
	}

	// A webhook stored before migration 0011 keeps its headers in plain text until the
	// service seals them at start. The scan finds it, which shows the scan can fail.
	legacyID := uuid.New()
	env.Exec(t, `INSERT INTO webhooks (id, client_id, url, event, headers_plaintext) VALUES ($1, $2, 'https://old.example.com/h', 'all', $3)`,
		legacyID, client.ID, map[string]string{"Authorization": legacy})
	if where := plaintextIn(t, env, legacy); len(where) != 1 || where[0] != "public.webhooks" {
		t.Fatalf("the legacy header found in %v", where)
	}
	if n, err := env.Webhooks.SealStoredHeaders(t.Context()); err != nil || n != 1 {
		t.Fatalf("sealed %d: %v", n, err)
	}
	if where := plaintextIn(t, env, legacy); len(where) > 0 {
		t.Fatalf("legacy header still in plain text in %v", where)
	}
	if h := env.Do(t, "GET", "/webhooks/"+legacyID.String(), key, nil).Want(200).Map()["headers"].(map[string]any); h["Authorization"] != legacy {
		t.Fatalf("the sealed legacy headers read %v", h)
	}
}

// plaintextIn lists the tables of the test's database holding s, as text or as the hex of
// its bytes, in any column of any row.
func plaintextIn(t *testing.T, env *testsupport.Env, s string) []string {
	t.Helper()
	ctx := t.Context()
	rows, err := env.DB.Pool.Query(ctx, `SELECT format('%I.%I', table_schema, table_name) FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found only tables %v", tables)
	}
	var found []string
	for _, table := range tables {
		var n int
		if err := env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` t WHERE strpos(t::text, $1) > 0 OR strpos(t::text, $2) > 0`,
			s, hex.EncodeToString([]byte(s))).Scan(&n); err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		if n > 0 {
			found = append(found, table)
		}
	}
	return found
}

// The number of webhooks per application is capped, and two creates racing for the last
// place do not both get it.
func TestWebhookLimit(t *testing.T) {
	t.Parallel()
	const limit = 3
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Webhooks.Limit = limit })
	key := env.NewClient(t, "limit").APIKey
	var ids []string
	for i := range limit {
		ids = append(ids, env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": fmt.Sprintf("https://h%d.example.com/x", i)}).Want(200).String("id"))
	}
	m := env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://over.example.com/x"}).WantError(409, model.CodeWebhookLimitReached.String())
	if !strings.Contains(m["message"].(string), "at most 3") {
		t.Fatalf("message %q", m["message"])
	}
	env.GraphQL(t, key, `mutation { createWebhook(input: {event: "all", url: "https://over.example.com/g"}) { id } }`, nil).WantCode(t, model.CodeWebhookLimitReached.String())
	// A disabled webhook still counts; a deleted one frees its place.
	env.Do(t, "PATCH", "/webhooks/"+ids[0], key, map[string]any{"enabled": false}).Want(200)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://over.example.com/x"}).WantError(409, model.CodeWebhookLimitReached.String())
	env.Do(t, "DELETE", "/webhooks/"+ids[0], key, nil).Want(200)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://over.example.com/x"}).Want(200)
	// Another application has its own count.
	other := env.NewClient(t, "limit-other").APIKey
	env.Do(t, "POST", "/webhooks", other, map[string]any{"event": "all", "url": "https://h0.example.com/x"}).Want(200)

	t.Run("racing creates", func(t *testing.T) {
		racer := env.NewClient(t, "limit-race").APIKey
		for i := range limit - 1 {
			env.Do(t, "POST", "/webhooks", racer, map[string]any{"event": "all", "url": fmt.Sprintf("https://r%d.example.com/x", i)}).Want(200)
		}
		const racers = 20
		statuses := make([]int, racers)
		codes := make([]string, racers)
		errs := make([]error, racers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range racers {
			wg.Go(func() {
				<-start
				body, _ := json.Marshal(map[string]any{"event": "all", "url": fmt.Sprintf("https://race%d.example.com/x", i)})
				req, _ := http.NewRequest("POST", env.URL+"/webhooks", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-API-KEY", racer)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					errs[i] = err
					return
				}
				defer resp.Body.Close()
				var e struct{ CodeDescription string }
				_ = json.NewDecoder(resp.Body).Decode(&e)
				statuses[i], codes[i] = resp.StatusCode, e.CodeDescription
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for i := range racers {
			switch {
			case errs[i] != nil:
				t.Fatal(errs[i])
			case statuses[i] == 200:
				won++
			case statuses[i] != 409 || codes[i] != model.CodeWebhookLimitReached.String():
				t.Fatalf("racer %d: %d %s", i, statuses[i], codes[i])
			}
		}
		total := env.Do(t, "GET", "/webhooks", racer, nil).Want(200).Map()["total"]
		if won != 1 || total != float64(limit) {
			t.Fatalf("%d racers created a webhook; the application has %v", won, total)
		}
	})
}
