package rest_test

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

type txPage struct {
	Results []model.Transaction `json:"results"`
	Next    *string             `json:"next"`
}

func readAll(t *testing.T, env *testsupport.Env, key, first string, between func(page int)) []model.Transaction {
	t.Helper()
	var all []model.Transaction
	path := first
	// next is a query string the client appends unchanged to the endpoint's path (4.4 rule 1).
	endpoint, _, _ := strings.Cut(strings.TrimPrefix(first, env.URL), "?")
	for page := 0; ; page++ {
		var p txPage
		env.Do(t, "GET", path, key, nil).Want(200).JSON(&p)
		if len(p.Results) > 500 {
			t.Fatalf("page of %d", len(p.Results))
		}
		all = append(all, p.Results...)
		if p.Next == nil {
			return all
		}
		if !strings.HasPrefix(*p.Next, "?") || !strings.Contains(*p.Next, "after=") {
			t.Fatalf("next %q", *p.Next)
		}
		path = endpoint + *p.Next
		if between != nil {
			between(page)
		}
	}
}

func TestTransactionsV2(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "transactions").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-3", "password": "password-ok"})
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	ids := env.AccountIDs(t, key, id)
	checking, savings := ids["CHECKING_ACCOUNT"], ids["SAVINGS_ACCOUNT"]
	var stored int
	if err := env.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM transactions WHERE account_id = $1`, checking).Scan(&stored); err != nil {
		t.Fatal(err)
	}

	// An update between page reads adds rows: the read still sees every row exactly once.
	all := readAll(t, env, key, "/v2/transactions?accountId="+checking, func(page int) {
		if page == 0 {
			env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
			env.WaitItem(t, key, id, testsupport.Settled)
		}
	})
	seen := map[string]bool{}
	for i, tx := range all {
		if seen[tx.ID.String()] {
			t.Fatalf("transaction %s read twice", tx.ID)
		}
		seen[tx.ID.String()] = true
		if i > 0 && tx.Date.Before(all[i-1].Date.Time) {
			t.Fatalf("out of order at %d", i)
		}
		if tx.AccountID.String() != checking || tx.CreatedAt.IsZero() || tx.CategoryID == nil {
			t.Fatalf("row %+v", tx)
		}
	}
	var after int
	_ = env.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM transactions WHERE account_id = $1`, checking).Scan(&after)
	if len(all) < stored || len(all) > after || stored < 1000 {
		t.Fatalf("read %d rows; %d stored before the update, %d after", len(all), stored, after)
	}

	// Tampered and foreign cursors are refused.
	var p txPage
	env.Do(t, "GET", "/v2/transactions?accountId="+checking, key, nil).Want(200).JSON(&p)
	u, _ := url.Parse(*p.Next)
	cursor := u.Query().Get("after")
	tampered := cursor[:5] + string(rune(cursor[5]^1)) + cursor[6:]
	env.Do(t, "GET", "/v2/transactions?accountId="+checking+"&after="+url.QueryEscape(tampered), key, nil).WantError(400, "INVALID_CURSOR")
	env.Do(t, "GET", "/v2/transactions?accountId="+checking+"&after=garbage", key, nil).WantError(400, "INVALID_CURSOR")
	env.Do(t, "GET", "/v2/transactions?accountId="+savings+"&after="+url.QueryEscape(cursor), key, nil).WantError(400, "INVALID_CURSOR")
	env.Do(t, "GET", "/v2/transactions?accountId="+checking+"&dateFrom=2020-01-01&after="+url.QueryEscape(cursor), key, nil).WantError(400, "INVALID_CURSOR")

	// Filters.
	var recent txPage
	env.Do(t, "GET", "/v2/transactions?accountId="+checking+"&dateFrom="+all[len(all)-1].Date.Format("2006-01-02"), key, nil).Want(200).JSON(&recent)
	if len(recent.Results) == 0 || len(recent.Results) > 500 {
		t.Fatalf("dateFrom: %d", len(recent.Results))
	}
	var two txPage
	env.Do(t, "GET", "/v2/transactions?accountId="+checking+"&ids="+all[0].ID.String()+","+all[1].ID.String(), key, nil).Want(200).JSON(&two)
	if len(two.Results) != 2 {
		t.Fatalf("ids: %d", len(two.Results))
	}
	bad := []string{"", "?accountId=x", "?accountId=" + checking + "&dateFrom=yesterday", "?accountId=" + checking + "&dateFrom=2026-02-01&dateTo=2026-01-01",
		"?accountId=" + checking + "&ids=1,2", "?accountId=" + checking + "&pageSize=10"}
	for _, q := range bad {
		env.Do(t, "GET", "/v2/transactions"+q, key, nil).WantError(400, "INVALID_PARAMETER")
	}
	other := env.NewClient(t, "other")
	env.Do(t, "GET", "/v2/transactions?accountId="+checking, other.APIKey, nil).WantError(404, "ACCOUNT_NOT_FOUND")

	// The link of the latest transactions/created returns exactly the rows it announced
	// (an earlier event's link also returns what later syncs added: it filters on
	// createdAtFrom only, as the spec defines it).
	var latest map[string]any
	for _, ev := range env.Events(t, key, id) {
		pl := ev["payload"].(map[string]any)
		if ev["event"] == "transactions/created" && pl["accountId"] == checking {
			latest = pl
		}
	}
	for _, pl := range []map[string]any{latest} {
		link := pl["createdTransactionsLink"].(string)
		rows := readCreatedLink(t, env, key, link)
		if float64(len(rows)) != pl["transactionsCount"] {
			t.Fatalf("link returned %d rows, event announced %v", len(rows), pl["transactionsCount"])
		}
	}

	// The cursor query, which names the account's item, reads the item's partition alone by
	// its (account_id, date, id) index, never a sequential scan.
	var plan strings.Builder
	rowsPlan, err := env.DB.Pool.Query(context.Background(), `EXPLAIN SELECT id FROM transactions t WHERE t.account_id = $1 AND t.item_id = $4
		AND (t.date, t.id) > ($2, $3) ORDER BY t.date, t.id LIMIT 501`, checking, all[10].Date.Time, all[10].ID, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rowsPlan.Next() {
		var line string
		_ = rowsPlan.Scan(&line)
		plan.WriteString(line + "\n")
	}
	rowsPlan.Close()
	partitions := map[string]bool{}
	for _, m := range regexp.MustCompile(`on (transactions_p\d+)`).FindAllStringSubmatch(plan.String(), -1) {
		partitions[m[1]] = true
	}
	if strings.Contains(plan.String(), "Seq Scan") || !strings.Contains(plan.String(), "_account_id_date_id_idx") || len(partitions) != 1 {
		t.Fatalf("plan:\n%s", plan.String())
	}
}

func TestTransactionCategory(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "category").APIKey
	it := createItem(t, env, key, 0, okParams)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	var accounts model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+id+"&type=BANK", key, nil).Want(200).JSON(&accounts)
	var page txPage
	env.Do(t, "GET", "/v2/transactions?accountId="+accounts.Results[0].ID.String(), key, nil).Want(200).JSON(&page)
	tx := page.Results[0]

	var one model.Transaction
	env.Do(t, "GET", "/transactions/"+tx.ID.String(), key, nil).Want(200).JSON(&one)
	if one.ID != tx.ID || one.Description != tx.Description {
		t.Fatalf("GET /transactions/{id}: %+v", one)
	}
	var patched model.Transaction
	env.Do(t, "PATCH", "/transactions/"+tx.ID.String(), key, map[string]any{"categoryId": "17010000"}).Want(200).JSON(&patched)
	if patched.CategoryID == nil || *patched.CategoryID != "17010000" || patched.Category == nil || *patched.Category != "Charities" {
		t.Fatalf("patched %v %v", patched.CategoryID, patched.Category)
	}
	// A later sync keeps the client's choice.
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	env.Do(t, "GET", "/transactions/"+tx.ID.String(), key, nil).Want(200).JSON(&one)
	if one.CategoryID == nil || *one.CategoryID != "17010000" {
		t.Fatalf("after a sync the category is %v", one.CategoryID)
	}
	fb := env.Do(t, "GET", "/category_feedback", key, nil).Want(200).Map()["results"].([]any)
	if len(fb) != 1 || fb[0].(map[string]any)["categoryId"] != "17010000" || fb[0].(map[string]any)["transactionId"] != tx.ID.String() {
		t.Fatalf("feedback %v", fb)
	}
	d := env.GraphQL(t, key, `{ categoryFeedback { categoryId previousCategoryId description } }`, nil).OK(t)
	if len(d["categoryFeedback"].([]any)) != 1 {
		t.Fatalf("graphql feedback %v", d)
	}

	env.Do(t, "PATCH", "/transactions/"+tx.ID.String(), key, map[string]any{"categoryId": "99999999"}).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "PATCH", "/transactions/"+tx.ID.String(), key, map[string]any{}).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/transactions/nope", key, nil).WantError(400, "INVALID_PARAMETER")
	other := env.NewClient(t, "other")
	env.Do(t, "GET", "/transactions/"+tx.ID.String(), other.APIKey, nil).WantError(404, "TRANSACTION_NOT_FOUND")
	env.Do(t, "PATCH", "/transactions/"+tx.ID.String(), other.APIKey, map[string]any{"categoryId": "17010000"}).WantError(404, "TRANSACTION_NOT_FOUND")
	tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": id}).Want(200).String("accessToken")
	env.Do(t, "GET", "/transactions/"+tx.ID.String(), tok, nil).WantError(403, "FORBIDDEN")
}

func TestLegacyTransactions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "legacy").APIKey
	it := createItem(t, env, key, 0, okParams)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	ids := env.AccountIDs(t, key, id)
	checking, card := ids["CHECKING_ACCOUNT"], ids["CREDIT_CARD"]
	v2 := readAll(t, env, key, "/v2/transactions?accountId="+checking, nil)

	type legacyPage struct {
		Total, TotalPages, Page int
		Results                 []model.Transaction
	}
	var got []model.Transaction
	for page := 1; ; page++ {
		var p legacyPage
		r := env.Do(t, "GET", fmt.Sprintf("/transactions?accountId=%s&pageSize=100&page=%d", checking, page), key, nil).Want(200)
		if r.Header.Get("Deprecation") == "" || r.Header.Get("Sunset") == "" || !strings.Contains(r.Header.Get("Link"), "/v2/transactions") {
			t.Fatalf("deprecation headers %v", r.Header)
		}
		r.JSON(&p)
		if p.Total != len(v2) || p.Page != page {
			t.Fatalf("page %d: total %d (v2 read %d)", page, p.Total, len(v2))
		}
		got = append(got, p.Results...)
		if page >= p.TotalPages {
			break
		}
	}
	if len(got) != len(v2) || got[0].ID != v2[0].ID || got[len(got)-1].ID != v2[len(v2)-1].ID {
		t.Fatalf("legacy read %d rows, v2 %d", len(got), len(v2))
	}
	// A sync that adds rows changes the total: the cached count follows the data.
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	var after legacyPage
	env.Do(t, "GET", "/transactions?accountId="+checking, key, nil).Want(200).JSON(&after)
	if now := readAll(t, env, key, "/v2/transactions?accountId="+checking, nil); after.Total != len(now) || len(now) == len(v2) {
		t.Fatalf("after a sync: total %d, the account holds %d (before the sync %d)", after.Total, len(now), len(v2))
	}
	// billId, from/to.
	var bills struct{ Results []struct{ ID string } }
	env.Do(t, "GET", "/bills?accountId="+card, key, nil).Want(200).JSON(&bills)
	var billed legacyPage
	env.Do(t, "GET", "/transactions?accountId="+card+"&billId="+bills.Results[1].ID, key, nil).Want(200).JSON(&billed)
	if billed.Total == 0 {
		t.Fatal("no transactions for a bill")
	}
	for _, tx := range billed.Results {
		if tx.CreditCardMetadata == nil || *tx.CreditCardMetadata.BillID != bills.Results[1].ID {
			t.Fatalf("row of another bill: %+v", tx.CreditCardMetadata)
		}
	}
	env.Do(t, "GET", "/transactions?accountId="+checking+"&from=2026-03-01&to=2026-02-01", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/transactions?accountId="+checking+"&pageSize=501", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/transactions", key, nil).WantError(400, "INVALID_PARAMETER")

	// After the sunset: a clear error naming the replacement.
	late := testsupport.New(t, func(s *testsupport.Setup) {
		s.Resolver.Now = func() time.Time { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC) }
	})
	lk := late.NewClient(t, "late").APIKey
	m := late.Do(t, "GET", "/transactions?accountId="+uuid.NewString(), lk, nil).WantError(410, "ENDPOINT_SUNSET")
	if !strings.Contains(m["message"].(string), "/v2/transactions") {
		t.Fatalf("message %v", m["message"])
	}
}
