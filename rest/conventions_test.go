package rest_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// next of a cursor envelope is a query string that the client appends unchanged to the
// endpoint's path (spec 2.1, 4.4 rule 1). TestTransactionsV2 follows it on
// /v2/transactions; here it is /v2/items, with a filter that next must carry along.
func TestCursorNextAppendsToPath(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "cursor")
	env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, c.ID)
	// More items than a page (100), plus some the filter leaves out; a second apart, as
	// items created one by one are.
	env.Exec(t, `INSERT INTO items (id, client_id, connector_id, client_user_id, created_at)
		SELECT gen_random_uuid(), $1, 0, CASE WHEN n % 14 = 0 THEN 'u2' ELSE 'u1' END, date_trunc('second', now()) - n * interval '1 second'
		FROM generate_series(1, 140) n`, c.ID)

	seen := map[uuid.UUID]bool{}
	path, pages := "/v2/items?clientUserId=u1", 0
	for path != "" {
		var p struct {
			Results []model.Item `json:"results"`
			Next    *string      `json:"next"`
		}
		env.Do(t, "GET", path, c.APIKey, nil).Want(200).JSON(&p)
		pages++
		for _, it := range p.Results {
			if seen[it.ID] || it.ClientUserID == nil || *it.ClientUserID != "u1" {
				t.Fatalf("page %d: item %s read twice or outside the filter", pages, it.ID)
			}
			seen[it.ID] = true
		}
		path = ""
		if p.Next != nil {
			if !strings.HasPrefix(*p.Next, "?") {
				t.Fatalf("next %q is not a query string", *p.Next)
			}
			v, err := url.ParseQuery(strings.TrimPrefix(*p.Next, "?"))
			if err != nil || v.Get("after") == "" || v.Get("clientUserId") != "u1" {
				t.Fatalf("next %q: %v", *p.Next, err)
			}
			path = "/v2/items" + *p.Next
		}
	}
	if len(seen) != 130 || pages != 2 {
		t.Fatalf("read %d items in %d pages, want 130 in 2", len(seen), pages)
	}
}

// A bad path id is named for what it is: the automatic PIX paths share {scheduleId} with
// the scheduled payments' paths, but name an automatic PIX payment.
func TestPathIDNames(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "names").APIKey
	id := uuid.NewString()
	cases := []struct{ method, path, want string }{
		{"GET", "/payments/requests/" + id + "/schedules/x", "Scheduled payment id"},
		{"POST", "/payments/requests/" + id + "/schedules/x/cancel", "Scheduled payment id"},
		{"GET", "/payments/requests/" + id + "/automatic-pix/schedules/x", "Automatic PIX payment id"},
		{"POST", "/payments/requests/" + id + "/automatic-pix/schedules/x/cancel", "Automatic PIX payment id"},
		{"POST", "/payments/requests/" + id + "/automatic-pix/schedules/x/retry", "Automatic PIX payment id"},
		{"GET", "/payments/requests/x/automatic-pix/schedules/" + id, "Payment request id"},
	}
	for _, c := range cases {
		body := env.Do(t, c.method, c.path, key, nil).WantError(400, "INVALID_PARAMETER")
		if msg, _ := body["message"].(string); !strings.HasPrefix(msg, c.want+" must be a UUID") {
			t.Errorf("%s %s: message %q, want it to name %q", c.method, c.path, msg, c.want)
		}
	}
}

// totalPages of an empty list is 0 in every page-number envelope, REST and GraphQL: no
// records need no page (spec 2.1, "pages needed to read all of them"), and page stays the
// page asked for.
func TestEmptyListsHaveNoPages(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "empty")
	// An Open Finance item whose first execution never ran: it has no accounts, products or
	// resources.
	item := uuid.NewString()
	env.Exec(t, `INSERT INTO items (id, client_id, connector_id) VALUES ($1, $2, 6)`, item, c.ID)

	type envelope struct {
		Total      *int  `json:"total"`
		TotalPages *int  `json:"totalPages"`
		Page       *int  `json:"page"`
		Results    []any `json:"results"`
	}
	for _, path := range []string{
		"/accounts?itemId=" + item,
		"/items/" + item + "/resources",
		"/investments?itemId=" + item,
		"/loans?itemId=" + item,
		"/webhooks",
		"/payments/requests",
		"/payments/intents",
		"/payments/customers",
		"/payments/recipients",
		"/categories?parentId=99999999",
	} {
		var e envelope
		env.Do(t, "GET", path, c.APIKey, nil).Want(200).JSON(&e)
		if e.Total == nil || *e.Total != 0 || e.TotalPages == nil || *e.TotalPages != 0 || e.Page == nil || *e.Page != 1 || len(e.Results) != 0 {
			t.Errorf("GET %s: total %v, totalPages %v, page %v, %d results; want 0, 0, 1, none", path, ptrVal(e.Total), ptrVal(e.TotalPages), ptrVal(e.Page), len(e.Results))
		}
	}
	var e envelope
	env.Do(t, "GET", "/webhooks?page=3", c.APIKey, nil).Want(200).JSON(&e)
	if *e.TotalPages != 0 || *e.Page != 3 {
		t.Errorf("GET /webhooks?page=3: totalPages %d, page %d", *e.TotalPages, *e.Page)
	}

	data := env.GraphQL(t, c.APIKey, `query($i: UUID!) {
		accounts(itemId: $i) { total totalPages page }
		itemResources(itemId: $i) { total totalPages page }
		webhooks { total totalPages page }
		paymentRequests { total totalPages page }
	}`, map[string]any{"i": item}).OK(t)
	for name, v := range data {
		if p := v.(map[string]any); p["total"] != float64(0) || p["totalPages"] != float64(0) || p["page"] != float64(1) {
			t.Errorf("GraphQL %s: %v", name, p)
		}
	}

	// A list with records says how many pages they fill.
	env.Do(t, "POST", "/payments/customers", c.APIKey, map[string]any{"type": "BUSINESS", "name": "Cliente",
		"cnpj": "11222333000181", "email": "cliente@example.com"}).Want(200)
	env.Do(t, "GET", "/payments/customers?pageSize=1", c.APIKey, nil).Want(200).JSON(&e)
	if *e.Total != 1 || *e.TotalPages != 1 {
		t.Errorf("one customer: total %d, totalPages %d", *e.Total, *e.TotalPages)
	}
}

func ptrVal(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// One rule for every date filter's upper bound: a plain date covers its whole day (UTC),
// a date-time its whole millisecond. Transactions read a plain dateTo as that day's
// midnight, leaving out its later rows, while payments covered the day.
func TestPlainDateUpperBound(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "dates").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	account := env.AccountIDs(t, key, it.ID.String())["CHECKING_ACCOUNT"]
	all := readAll(t, env, key, "/v2/transactions?accountId="+account, nil)

	// A day with a row after midnight, and the rows of that day (UTC).
	var day string
	var late model.Transaction
	for _, tx := range all {
		if d := tx.Date.UTC(); d.Hour() > 0 {
			day, late = d.Format(time.DateOnly), tx
		}
	}
	if day == "" {
		t.Fatal("no transaction after midnight to test with")
	}
	var want []string
	for _, tx := range all {
		if tx.Date.UTC().Format(time.DateOnly) == day {
			want = append(want, tx.ID.String())
		}
	}
	ids := func(list []model.Transaction) []string {
		out := []string{}
		for _, tx := range list {
			out = append(out, tx.ID.String())
		}
		return out
	}
	v2 := readAll(t, env, key, "/v2/transactions?accountId="+account+"&dateFrom="+day+"&dateTo="+day, nil)
	if got := ids(v2); !slices.Equal(got, want) {
		t.Errorf("GET /v2/transactions dateFrom=dateTo=%s: %d rows %v, want the day's %d %v", day, len(got), got, len(want), want)
	}
	var legacy struct {
		Results []model.Transaction `json:"results"`
	}
	env.Do(t, "GET", "/transactions?accountId="+account+"&from="+day+"&to="+day, key, nil).Want(200).JSON(&legacy)
	if got := ids(legacy.Results); !slices.Equal(got, want) {
		t.Errorf("GET /transactions from=to=%s: %d rows %v, want the day's %d %v", day, len(got), got, len(want), want)
	}
	// GraphQL's filter reads dateTo the same way, resolved alone or batched over an item's
	// accounts (which re-reads the arguments).
	filter := map[string]any{"dateFrom": day, "dateTo": day}
	gqlIDs := func(nodes any) []string {
		out := []string{}
		for _, n := range nodes.([]any) {
			out = append(out, n.(map[string]any)["id"].(string))
		}
		return out
	}
	one := env.GraphQL(t, key, `query($a: UUID!, $f: TransactionFilterInput) { transactions(accountId: $a, first: 500, filter: $f) { nodes { id } } }`,
		map[string]any{"a": account, "f": filter}).OK(t)["transactions"].(map[string]any)
	if got := gqlIDs(one["nodes"]); !slices.Equal(got, want) {
		t.Errorf("GraphQL transactions(filter: %v): %v, want %v", filter, got, want)
	}
	batched := env.GraphQL(t, key, `query($i: UUID!, $f: TransactionFilterInput) { item(id: $i) { accounts { nodes { id transactions(first: 500, filter: $f) { nodes { id } } } } } }`,
		map[string]any{"i": it.ID.String(), "f": filter}).OK(t)["item"].(map[string]any)["accounts"].(map[string]any)["nodes"].([]any)
	for _, a := range batched {
		if a := a.(map[string]any); a["id"] == account {
			if got := gqlIDs(a["transactions"].(map[string]any)["nodes"]); !slices.Equal(got, want) {
				t.Errorf("GraphQL item.accounts.transactions(filter: %v): %v, want %v", filter, got, want)
			}
		}
	}

	// A date-time bound, as the API writes it, includes its own row.
	at := late.Date.UTC().Format(model.TimeLayout)
	v2 = readAll(t, env, key, "/v2/transactions?accountId="+account+"&dateFrom="+at+"&dateTo="+at, nil)
	if !slices.Contains(ids(v2), late.ID.String()) {
		t.Errorf("dateFrom=dateTo=%s leaves out the row at that time", at)
	}

	// Payments: the same rule on created dates.
	var req struct {
		ID        string     `json:"id"`
		CreatedAt model.Time `json:"createdAt"`
	}
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true,
		"recipientId": env.Recipient(t, key)}).Want(200).JSON(&req)
	today := req.CreatedAt.UTC().Format(time.DateOnly)
	yesterday := req.CreatedAt.UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	for q, in := range map[string]bool{
		"from=" + today + "&to=" + today: true,
		"to=" + today:                    true,
		"to=" + yesterday:                false,
		"to=" + req.CreatedAt.String():   true,
		"from=" + req.CreatedAt.String() + "&to=" + req.CreatedAt.String(): true,
	} {
		var page struct {
			Results []struct {
				ID string `json:"id"`
			} `json:"results"`
		}
		env.Do(t, "GET", "/payments/requests?"+q, key, nil).Want(200).JSON(&page)
		if got := len(page.Results) == 1 && page.Results[0].ID == req.ID; got != in {
			t.Errorf("GET /payments/requests?%s: %d results, want the request %v", q, len(page.Results), in)
		}
	}
	data := env.GraphQL(t, key, `query($d: String) { paymentRequests(from: $d, to: $d) { total } }`, map[string]any{"d": today}).OK(t)
	if n := data["paymentRequests"].(map[string]any)["total"]; n != float64(1) {
		t.Errorf("GraphQL paymentRequests(from: to: %s): total %v", today, n)
	}
}
