package rest_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// consecutiveFailedLoginAttempts counts login errors until a login succeeds (spec 2.3,
// 7.3): new parameters do not reset it, so repeated wrong passwords reach the cooldown.
func TestLoginFailuresReachCooldown(t *testing.T) {
	t.Parallel()
	clock := clockAt(time.Now())
	env := testsupport.New(t, func(s *testsupport.Setup) {
		s.Sync.Now, s.Sync.LoginFailureLimit, s.Sync.LoginCooldown = clock.now, 3, time.Hour
	})
	key := env.NewClient(t, "login-failures").APIKey
	id := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "wrong-1"}).ID.String()
	attempts := func(want int, status model.ItemStatus) {
		t.Helper()
		it, _ := env.WaitItem(t, key, id, testsupport.Settled)
		if it.Status != status || it.ConsecutiveFailedLoginAttempts != want {
			t.Fatalf("item %s with %d consecutive failed logins, want %s with %d", it.Status, it.ConsecutiveFailedLoginAttempts, status, want)
		}
	}
	attempts(1, model.ItemLoginError)
	for n := 2; n <= 3; n++ {
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": fmt.Sprint("wrong-", n)}}).Want(200)
		attempts(n, model.ItemLoginError)
	}
	// The third failure starts the cooldown: even the right password waits.
	m := env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).
		WantError(400, model.CodeTooManyLoginFailures.String())
	if msg, _ := m["message"].(string); !strings.Contains(msg, "3 failed attempts") || !strings.Contains(msg, "retry after") {
		t.Fatalf("message %q", msg)
	}
	attempts(3, model.ItemLoginError)

	clock.advance(time.Hour + time.Minute)
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).Want(200)
	attempts(0, model.ItemUpdated)
	// A success ends the run: the next failure counts from one.
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": "wrong-4"}}).Want(200)
	attempts(1, model.ItemLoginError)
}

// createdTransactionsLink targets the page-based GET /transactions with accountId and
// createdAtFrom while it is served (spec 4.4 rule 4, 6.2), and GET /v2/transactions from
// its sunset on; either way the link returns the rows the event announced.
func TestCreatedTransactionsLinkAcrossSunset(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		at   time.Time
	}{
		{"before the sunset", model.TransactionsSunset.Add(-2 * time.Hour)},
		{"after the sunset", model.TransactionsSunset.Add(time.Minute)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock := clockAt(tc.at)
			env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.Now, s.Resolver.Now = clock.now, clock.now })
			key := env.NewClient(t, "link").APIKey
			id := createItem(t, env, key, 0, okParams).ID.String()
			env.WaitItem(t, key, id, testsupport.Settled)
			accounts := map[string]bool{}
			for _, acc := range env.AccountIDs(t, key, id) {
				accounts[acc] = true
			}
			wantPath := createdLinkPath(tc.at)
			events := 0
			for _, ev := range env.Events(t, key, id) {
				if ev["event"] != "transactions/created" {
					continue
				}
				events++
				p := ev["payload"].(map[string]any)
				link := p["createdTransactionsLink"].(string)
				u, err := url.Parse(link)
				if err != nil || u.Path != wantPath {
					t.Fatalf("createdTransactionsLink %q, want the path %s", link, wantPath)
				}
				q := u.Query()
				if len(q) != 2 || q.Get("accountId") != p["accountId"] || q.Get("createdAtFrom") != p["transactionsCreatedAtFrom"] {
					t.Fatalf("createdTransactionsLink %q: want exactly accountId and createdAtFrom of the event %v", link, p)
				}
				rows := readCreatedLink(t, env, key, link)
				if float64(len(rows)) != p["transactionsCount"] {
					t.Fatalf("%s returned %d rows, the event announced %v", link, len(rows), p["transactionsCount"])
				}
				for _, r := range rows {
					if !accounts[r.AccountID.String()] || r.AccountID.String() != p["accountId"] {
						t.Fatalf("%s returned a row of account %s", link, r.AccountID)
					}
				}
			}
			if events == 0 {
				t.Fatal("no transactions/created event")
			}
			// The clock the link follows is the one that retires the endpoint.
			legacy := "/transactions?accountId=" + firstKey(accounts)
			if tc.at.Before(model.TransactionsSunset) {
				env.Do(t, "GET", legacy, key, nil).Want(200)
			} else {
				env.Do(t, "GET", legacy, key, nil).WantError(410, model.CodeEndpointSunset.String())
			}
		})
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}

// The after cursor of GET /v2/items and itemConnection is signed like the other lists'
// cursors (an unsigned, forged or altered one is a 400 INVALID_CURSOR), bound to the
// application and filters it was issued for, and carries the exact position: items stored
// within one millisecond are each read once across pages.
func TestItemsCursorSignedAndExact(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "items-cursor")
	other := env.NewClient(t, "items-cursor-other")
	for _, cl := range []*testsupport.Client{c, other} {
		env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, cl.ID)
	}
	// Some items through the API, then many more created in three milliseconds, stored to
	// the microsecond as PostgreSQL keeps timestamps (the API writes whole milliseconds,
	// but nothing in the table says a row must).
	want := map[uuid.UUID]bool{}
	for i := 0; i < 3; i++ {
		it := createItem(t, env, c.APIKey, 0, map[string]any{"user": "user-logged", "password": "password-ok"})
		want[it.ID] = true
		env.WaitItem(t, c.APIKey, it.ID.String(), testsupport.Settled)
	}
	env.Exec(t, `INSERT INTO items (id, client_id, connector_id, client_user_id, created_at)
		SELECT gen_random_uuid(), $1, 0, 'u1', date_trunc('milliseconds', now()) + interval '1 second'
			+ (n % 3) * interval '1 millisecond' + (n * 7919 % 1000) * interval '1 microsecond'
		FROM generate_series(1, 247) n`, c.ID)
	rows, err := env.DB.Pool.Query(t.Context(), `SELECT id FROM items WHERE client_id = $1 AND client_user_id = 'u1'`, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		want[id] = true
	}
	rows.Close()
	if len(want) != 250 {
		t.Fatalf("arranged %d items, want 250", len(want))
	}
	readAllItems := func(first string) (map[uuid.UUID]bool, []string) {
		t.Helper()
		seen, nexts := map[uuid.UUID]bool{}, []string{}
		path, endpoint := first, strings.SplitN(first, "?", 2)[0]
		last := time.Time{}
		for pages := 0; path != ""; pages++ {
			if pages > 10 {
				t.Fatal("more pages than 250 items fill")
			}
			var p struct {
				Results []model.Item `json:"results"`
				Next    *string      `json:"next"`
			}
			env.Do(t, "GET", path, c.APIKey, nil).Want(200).JSON(&p)
			for _, it := range p.Results {
				if seen[it.ID] || (!last.IsZero() && it.CreatedAt.After(last)) {
					t.Fatalf("item %s read twice or out of order", it.ID)
				}
				seen[it.ID], last = true, it.CreatedAt.Time
			}
			path = ""
			if p.Next != nil {
				nexts = append(nexts, *p.Next)
				path = endpoint + *p.Next
			}
		}
		return seen, nexts
	}
	seen, nexts := readAllItems("/v2/items")
	if len(seen) != len(want) || len(nexts) != 2 {
		t.Fatalf("GET /v2/items read %d of %d items in %d pages", len(seen), len(want), len(nexts)+1)
	}
	for id := range want {
		if !seen[id] {
			t.Fatalf("GET /v2/items skipped item %s", id)
		}
	}
	if seen, _ := readAllItems("/v2/items?clientUserId=u1"); len(seen) != 247 {
		t.Fatalf("GET /v2/items?clientUserId=u1 read %d items, want 247", len(seen))
	}

	// A small page size puts many page ends inside one millisecond.
	const page = `query($c: String) { itemConnection(first: 7, after: $c) { pageInfo { hasNextPage endCursor } nodes { id } } }`
	gqlSeen := map[string]bool{}
	var cursor any
	for pages := 0; ; pages++ {
		if pages > 40 {
			t.Fatal("itemConnection never ended")
		}
		conn := env.GraphQL(t, c.APIKey, page, map[string]any{"c": cursor}).OK(t)["itemConnection"].(map[string]any)
		for _, n := range conn["nodes"].([]any) {
			id := n.(map[string]any)["id"].(string)
			if gqlSeen[id] {
				t.Fatalf("itemConnection read %s twice", id)
			}
			gqlSeen[id] = true
		}
		info := conn["pageInfo"].(map[string]any)
		if info["hasNextPage"] != true {
			break
		}
		cursor = info["endCursor"]
	}
	if len(gqlSeen) != len(want) {
		t.Fatalf("itemConnection(first: 7) read %d of %d items", len(gqlSeen), len(want))
	}

	after, err := url.ParseQuery(strings.TrimPrefix(nexts[0], "?"))
	if err != nil || after.Get("after") == "" {
		t.Fatalf("next %q", nexts[0])
	}
	valid := after.Get("after")
	payload, sig, _ := strings.Cut(valid, ".")
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		t.Fatalf("cursor %q: %v", valid, err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatalf("cursor payload %q: %v", raw, err)
	}
	fields["i"] = uuid.NewString()
	moved, _ := json.Marshal(fields)
	position, _ := json.Marshal(map[string]any{"c": time.Now().Format(time.RFC3339Nano), "i": uuid.NewString()})
	refused := map[string]string{
		"garbage":                "garbage",
		"an unsigned position":   base64.RawURLEncoding.EncodeToString(position),
		"a payload moved":        base64.RawURLEncoding.EncodeToString(moved) + "." + sig,
		"a signature cut":        valid[:len(valid)-1],
		"a signature of another": payload + "." + strings.Repeat("A", len(sig)),
	}
	for what, cur := range refused {
		t.Run(what, func(t *testing.T) {
			env.Do(t, "GET", "/v2/items?after="+url.QueryEscape(cur), c.APIKey, nil).WantError(400, model.CodeInvalidCursor.String())
			env.GraphQL(t, c.APIKey, page, map[string]any{"c": cur}).WantCode(t, model.CodeInvalidCursor.String())
		})
	}
	// A genuine cursor read with other filters or by another application is refused too.
	env.Do(t, "GET", "/v2/items?clientUserId=u1&after="+url.QueryEscape(valid), c.APIKey, nil).WantError(400, model.CodeInvalidCursor.String())
	env.Do(t, "GET", "/v2/items?after="+url.QueryEscape(valid), other.APIKey, nil).WantError(400, model.CodeInvalidCursor.String())
	env.Do(t, "GET", "/v2/items?after="+url.QueryEscape(valid), c.APIKey, nil).Want(200)
}

// The name filter of the payment institutions is matched as typed: % and _ are characters,
// not LIKE's wildcards.
func TestInstitutionNameIsLiteral(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "institution-names").APIKey
	env.Exec(t, `INSERT INTO payment_institutions (id, name, trade_name, ispb, compe) VALUES
		(gen_random_uuid(), 'Banco 100% Digital S.A.', '100% Digital', '99999901', NULL),
		(gen_random_uuid(), 'Pague_Ja Instituição de Pagamento', 'Pague_Ja', '99999902', NULL)`)
	var all model.PaymentInstitutionPage
	env.Do(t, "GET", "/payments/recipients/institutions?pageSize=500", key, nil).Want(200).JSON(&all)
	for _, tc := range []struct {
		name string
		want []string // ISPBs
	}{
		{"%", []string{"99999901"}},
		{"0% d", []string{"99999901"}},
		{"_", []string{"99999902"}},
		{"e_j", []string{"99999902"}},
		{"%%", nil},
		{`\`, nil},
		{"b_nco", nil},
		{"bradesco", []string{"60746948"}},
	} {
		var page model.PaymentInstitutionPage
		env.Do(t, "GET", "/payments/recipients/institutions?name="+url.QueryEscape(tc.name), key, nil).Want(200).JSON(&page)
		var got []string
		for _, i := range page.Results {
			got = append(got, i.Ispb)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) || page.Total != len(tc.want) {
			t.Errorf("name=%q: %v (total %d of %d), want %v", tc.name, got, page.Total, all.Total, tc.want)
		}
		d := env.GraphQL(t, key, `query($n: String) { paymentInstitutions(name: $n) { total results { ispb } } }`, map[string]any{"n": tc.name}).OK(t)
		if total := d["paymentInstitutions"].(map[string]any)["total"]; total != float64(len(tc.want)) {
			t.Errorf("GraphQL name=%q: total %v, want %d", tc.name, total, len(tc.want))
		}
	}
}

// Connector name search reads % and _ as typed too: they were LIKE wildcards, so name=%
// listed the whole catalogue.
func TestConnectorNameIsLiteral(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "connector-names").APIKey
	var all model.ConnectorPage
	env.Do(t, "GET", "/connectors?sandbox=true", key, nil).Want(200).JSON(&all)
	if all.Total < 3 {
		t.Fatalf("the catalogue has %d connectors", all.Total)
	}
	for _, name := range []string{"%", "_", "%%", `\`, "%_%"} {
		var page model.ConnectorPage
		env.Do(t, "GET", "/connectors?sandbox=true&name="+url.QueryEscape(name), key, nil).Want(200).JSON(&page)
		for _, c := range page.Results {
			if !strings.Contains(c.Name, name) {
				t.Errorf("name=%q matched %q", name, c.Name)
			}
		}
	}
	var itau model.ConnectorPage
	env.Do(t, "GET", "/connectors?name=econ%C3%B4mica", key, nil).Want(200).JSON(&itau)
	if itau.Total == 0 {
		t.Error(`name=econômica no longer finds the Caixa connector`)
	}
}
