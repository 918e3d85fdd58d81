package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

func TestProductReads(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "products").APIKey
	it := createItem(t, env, key, 0, okParams)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	ids := env.AccountIDs(t, key, id)
	card, checking := ids["CREDIT_CARD"], ids["CHECKING_ACCOUNT"]

	lists := []struct {
		path   string
		min    int
		fields []string
	}{
		{"/investments?itemId=" + id, 4, []string{"id", "itemId", "type", "subtype", "name", "balance", "currencyCode", "issuer", "rate", "status", "createdAt"}},
		{"/investments?itemId=" + id + "&type=EQUITY", 1, []string{"type"}},
		{"/loans?itemId=" + id, 1, []string{"id", "itemId", "productName", "kind", "contractAmount", "CET", "installments", "interestRates"}},
		{"/bills?accountId=" + card, 10, []string{"id", "dueDate", "totalAmount", "totalAmountCurrencyCode", "minimumPaymentAmount", "payments", "financeCharges"}},
		{"/accounts/" + checking + "/statements", 12, []string{"id", "monthYear", "url"}},
		{"/consents?itemId=" + id, 0, nil},
		{"/investments?itemId=" + id + "&pageSize=2&page=2", 2, []string{"id"}},
	}
	// A page past the end is empty but still reports the total.
	var past struct {
		Total   int   `json:"total"`
		Results []any `json:"results"`
	}
	env.Do(t, "GET", "/investments?itemId="+id+"&pageSize=2&page=50", key, nil).Want(200).JSON(&past)
	if past.Total < 4 || len(past.Results) != 0 {
		t.Fatalf("page past the end: total %d, %d results", past.Total, len(past.Results))
	}
	for _, l := range lists {
		var page struct {
			Total      int              `json:"total"`
			TotalPages int              `json:"totalPages"`
			Page       int              `json:"page"`
			Results    []map[string]any `json:"results"`
		}
		env.Do(t, "GET", l.path, key, nil).Want(200).JSON(&page)
		if page.Total < l.min || len(page.Results) < min(l.min, 2) {
			t.Fatalf("%s: total %d, %d results", l.path, page.Total, len(page.Results))
		}
		for _, r := range page.Results {
			for _, f := range l.fields {
				if _, ok := r[f]; !ok {
					t.Fatalf("%s: result lacks %s: %v", l.path, f, r)
				}
			}
		}
	}
	var inv struct {
		Results []struct{ ID string } `json:"results"`
	}
	env.Do(t, "GET", "/investments?itemId="+id, key, nil).Want(200).JSON(&inv)
	env.Do(t, "GET", "/investments/"+inv.Results[0].ID, key, nil).Want(200)
	txs := env.Do(t, "GET", "/investments/"+inv.Results[0].ID+"/transactions", key, nil).Want(200).Map()
	if txs["total"].(float64) == 0 {
		t.Fatal("no investment transactions")
	}
	identity := env.Do(t, "GET", "/identity?itemId="+id, key, nil).Want(200).Map()
	env.Do(t, "GET", "/identity/"+identity["id"].(string), key, nil).Want(200)

	errs := []struct {
		path   string
		status int
		code   string
	}{
		{"/investments", 400, "INVALID_PARAMETER"},
		{"/investments?itemId=" + uuid.NewString(), 404, "ITEM_NOT_FOUND"},
		{"/investments/" + uuid.NewString(), 404, "INVESTMENT_NOT_FOUND"},
		{"/investments/" + uuid.NewString() + "/transactions", 404, "INVESTMENT_NOT_FOUND"},
		{"/loans/" + uuid.NewString(), 404, "LOAN_NOT_FOUND"},
		{"/bills?accountId=" + uuid.NewString(), 404, "ACCOUNT_NOT_FOUND"},
		{"/bills/x", 400, "INVALID_PARAMETER"},
		{"/identity/" + uuid.NewString(), 404, "IDENTITY_NOT_FOUND"},
		{"/consents/" + uuid.NewString(), 404, "CONSENT_NOT_FOUND"},
		{"/investments?itemId=" + id + "&pageSize=0", 400, "INVALID_PARAMETER"},
		{"/loans?itemId=" + id + "&sort=asc", 400, "INVALID_PARAMETER"},
	}
	for _, e := range errs {
		env.Do(t, "GET", e.path, key, nil).WantError(e.status, e.code)
	}
	other := env.NewClient(t, "other").APIKey
	env.Do(t, "GET", "/investments/"+inv.Results[0].ID, other, nil).WantError(404, "INVESTMENT_NOT_FOUND")
	tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": id}).Want(200).String("accessToken")
	env.Do(t, "GET", "/investments?itemId="+id, tok, nil).WantError(403, "FORBIDDEN")

	// Open Finance items carry their consent.
	of := createItem(t, env, key, 5, map[string]any{"cpf": "52998224725"})
	approve(t, env, key, of.ID.String())
	consents := env.Do(t, "GET", "/consents?itemId="+of.ID.String(), key, nil).Want(200).Map()["results"].([]any)
	if len(consents) != 1 {
		t.Fatalf("consents %v", consents)
	}
	c := consents[0].(map[string]any)
	for _, f := range []string{"id", "itemId", "products", "openFinancePermissionsGranted", "createdAt", "expiresAt", "revokedAt"} {
		if _, ok := c[f]; !ok {
			t.Fatalf("consent lacks %s", f)
		}
	}
	env.Do(t, "GET", "/consents/"+c["id"].(string), key, nil).Want(200)
}
