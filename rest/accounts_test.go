package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"sync"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

func TestAccounts(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "accounts")
	key := c.APIKey
	tok := env.Do(t, "POST", "/connect_token", key, nil).Want(200).String("accessToken")
	var it model.Item
	env.Do(t, "POST", "/items", tok, map[string]any{"connectorId": 0, "parameters": okParams}).Want(200).JSON(&it)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)

	// The list writes each row's dates into its stored document; the single read decodes
	// and encodes. They must agree, on the first list (the owner's join) and the next (the
	// owner remembered).
	for range 2 {
		for _, l := range env.Do(t, "GET", "/accounts?itemId="+id, key, nil).Want(200).Map()["results"].([]any) {
			a := l.(map[string]any)
			one := env.Do(t, "GET", "/accounts/"+a["id"].(string), key, nil).Want(200).Map()
			if !reflect.DeepEqual(a, one) || a["createdAt"] == "0001-01-01T00:00:00.000Z" {
				t.Fatalf("the list says\n%v\nthe account says\n%v", a, one)
			}
		}
	}
	var page model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+id, key, nil).Want(200).JSON(&page)
	if page.Total != 3 || len(page.Results) != 3 {
		t.Fatalf("%d accounts", page.Total)
	}
	subtypes := map[string]*model.Account{}
	for _, a := range page.Results {
		subtypes[a.Subtype] = a
		if a.ItemID != it.ID || a.Balance == nil || a.Owner == nil || a.CreatedAt.IsZero() {
			t.Fatalf("account %+v", a)
		}
	}
	if subtypes["CHECKING_ACCOUNT"] == nil || subtypes["CHECKING_ACCOUNT"].BankData == nil || subtypes["CREDIT_CARD"] == nil || subtypes["CREDIT_CARD"].CreditData == nil {
		t.Fatalf("subtypes %v", subtypes)
	}
	raw := env.Do(t, "GET", "/accounts/"+subtypes["CHECKING_ACCOUNT"].ID.String(), key, nil).Want(200).Map()
	for _, f := range []string{"id", "itemId", "type", "subtype", "number", "balance", "name", "marketingName", "owner", "taxNumber",
		"currencyCode", "bankData", "creditData", "createdAt", "updatedAt"} {
		if _, ok := raw[f]; !ok {
			t.Errorf("account lacks %s", f)
		}
	}
	env.Do(t, "GET", "/accounts?itemId="+id+"&type=CREDIT", key, nil).Want(200).JSON(&page)
	if page.Total != 1 || page.Results[0].Type != "CREDIT" {
		t.Fatalf("type filter: %d", page.Total)
	}

	// The Connect Token's reduced view: which accounts exist, never balances or documents.
	reduced := env.Do(t, "GET", "/accounts?itemId="+id, tok, nil).Want(200).Map()["results"].([]any)
	for _, r := range reduced {
		a := r.(map[string]any)
		for _, f := range []string{"balance", "owner", "taxNumber", "bankData", "creditData"} {
			if a[f] != nil {
				t.Fatalf("reduced view shows %s: %v", f, a[f])
			}
		}
		if a["name"] == "" || a["subtype"] == "" {
			t.Fatalf("reduced view lacks identity: %v", a)
		}
	}
	env.Do(t, "GET", "/accounts/"+subtypes["CHECKING_ACCOUNT"].ID.String(), tok, nil).WantError(403, "FORBIDDEN")

	other := env.NewClient(t, "other")
	env.Do(t, "GET", "/accounts?itemId="+id, other.APIKey, nil).WantError(404, "ITEM_NOT_FOUND")
	env.Do(t, "GET", "/accounts/"+subtypes["CHECKING_ACCOUNT"].ID.String(), other.APIKey, nil).WantError(404, "ACCOUNT_NOT_FOUND")
	env.Do(t, "GET", "/accounts", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/accounts?itemId=x", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/accounts?itemId="+id+"&type=CASH", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/accounts/"+uuid.NewString(), key, nil).WantError(404, "ACCOUNT_NOT_FOUND")

	d := env.GraphQL(t, key, `query($id: UUID!) { accounts(itemId: $id, type: "BANK") { total results { subtype balance bankData { transferNumber closingBalance } } } }`,
		map[string]any{"id": id}).OK(t)
	if d["accounts"].(map[string]any)["total"] != float64(2) {
		t.Fatalf("graphql accounts %v", d)
	}

	// A refresh keeps every account's createdAt, and its updatedAt unless its content moved
	// (the sandbox's refresh moves the balances of the card and the checking account, not
	// the savings account's). The list stays compact JSON (the documents are sent as
	// stored), and GraphQL reads the same dates.
	before := env.Do(t, "GET", "/accounts?itemId="+id, key, nil).Want(200).Body
	var synced model.Item
	env.Do(t, "GET", "/items/"+id, key, nil).Want(200).JSON(&synced)
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, id, func(i *model.Item) bool {
		return testsupport.Settled(i) && i.LastUpdatedAt.After(synced.LastUpdatedAt.Time)
	})
	after := env.Do(t, "GET", "/accounts?itemId="+id, key, nil).Want(200).Body
	if bytes.Contains(after, []byte(`": `)) || bytes.Contains(after, []byte(`, "`)) {
		t.Fatalf("the list is not compact: %s", after)
	}
	docs := func(body []byte) []map[string]any {
		var p struct{ Results []map[string]any }
		if err := json.Unmarshal(body, &p); err != nil || len(p.Results) != 3 {
			t.Fatalf("list %s: %v", body, err)
		}
		return p.Results
	}
	moved := map[bool]int{}
	for i, now := range docs(after) {
		was := docs(before)[i]
		changed := !reflect.DeepEqual(withoutDates(was), withoutDates(now))
		moved[changed]++
		if now["createdAt"] != was["createdAt"] || (now["updatedAt"] != was["updatedAt"]) != changed {
			t.Fatalf("account %v (content changed: %v): dates went from %v %v to %v %v", now["subtype"], changed,
				was["createdAt"], was["updatedAt"], now["createdAt"], now["updatedAt"])
		}
	}
	if moved[true] == 0 || moved[false] == 0 {
		t.Fatalf("a refresh should move some accounts and not others: %v", moved)
	}
	dates := env.GraphQL(t, key, `query($id: UUID!) { accounts(itemId: $id) { results { createdAt updatedAt } } }`, map[string]any{"id": id}).OK(t)
	for i, r := range dates["accounts"].(map[string]any)["results"].([]any) {
		if want := docs(after)[i]; r.(map[string]any)["createdAt"] != want["createdAt"] || r.(map[string]any)["updatedAt"] != want["updatedAt"] {
			t.Fatalf("GraphQL's dates %v, the list's %v %v", r, want["createdAt"], want["updatedAt"])
		}
	}
}

func withoutDates(doc map[string]any) map[string]any {
	out := maps.Clone(doc)
	delete(out, "createdAt")
	delete(out, "updatedAt")
	return out
}

// TestAccountListsInParallel reads the account lists of two items at once, many times over:
// each list's documents are read into a buffer the next request reuses (rawListPage), so a
// buffer given back before its answer was written, or shared by two answers, would show
// here as one item's accounts in the other's answer or as broken JSON.
func TestAccountListsInParallel(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "parallel-lists")
	paths := []string{}
	want := map[string][]byte{}
	for _, user := range []string{"user-ok", "user-ok-perf-20"} {
		path := "/accounts?itemId=" + createItemTB(t, env, c.APIKey, user).String()
		paths = append(paths, path)
		want[path] = env.Do(t, "GET", path, c.APIKey, nil).Want(200).Body
	}
	if bytes.Equal(want[paths[0]], want[paths[1]]) {
		t.Fatal("the two items list the same accounts: the test could not tell them apart")
	}
	var mu sync.Mutex
	var wrong []string
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 40 {
				path := paths[(i+w)%2]
				req, _ := http.NewRequest("GET", env.URL+path, nil)
				req.Header.Set("X-API-KEY", c.APIKey)
				resp, err := http.DefaultClient.Do(req)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, want[path]) {
					mu.Lock()
					wrong = append(wrong, fmt.Sprintf("%s: %v %.300s", path, err, body))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(wrong) > 0 {
		t.Fatalf("%d of 320 lists differ from the item's own; the first: %s", len(wrong), wrong[0])
	}
}
