package rest_test

import (
	"net/url"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// The sandbox's Carrefour (sandbox/world.go, migration 0040), written as people write it.
const (
	carrefourCNPJ      = "07665418000167"
	carrefourFormatted = "07.665.418/0001-67"
)

func TestMerchantsLookup(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "merchants").APIKey

	// Formatted and bare (answered once), a valid numeric and a valid alphanumeric CNPJ the
	// directory lacks (the latter in lower case with punctuation), and two invalid values.
	asked := []string{carrefourFormatted, carrefourCNPJ, "11222333000181", "p2.n9g.29x/0001-02", "11222333000182", "abc", "abc"}
	var got model.MerchantLookup
	env.Do(t, "GET", "/merchants?cnpjs="+url.QueryEscape(strings.Join(asked, ",")), key, nil).Want(200).JSON(&got)
	if len(got.FoundMerchants) != 1 {
		t.Fatalf("found %+v, want Carrefour once", got.FoundMerchants)
	}
	m := got.FoundMerchants[0]
	if m.CNPJ != carrefourCNPJ || m.Name != "CARREFOUR HIPER" || m.BusinessName != "CARREFOUR COMERCIO E INDUSTRIA LTDA" ||
		m.CNAE == nil || *m.CNAE != "4711301" || m.Category == nil || *m.Category != "Supermercado" {
		t.Errorf("Carrefour answered as %+v (cnae %v, category %v)", m, m.CNAE, m.Category)
	}
	if strings.Join(got.NotFoundMerchants, ",") != "11222333000181,P2N9G29X000102" {
		t.Errorf("notFoundMerchants %q", got.NotFoundMerchants)
	}
	if strings.Join(got.InvalidCnpjs, ",") != "11222333000182,abc" {
		t.Errorf("invalidCnpjs %q", got.InvalidCnpjs)
	}

	// GraphQL answers the same.
	data := env.GraphQL(t, key, `query($c: [String!]!) { merchants(cnpjs: $c) {
		foundMerchants { cnpj name businessName cnae category } notFoundMerchants invalidCnpjs } }`,
		map[string]any{"c": asked}).OK(t)
	gm := data["merchants"].(map[string]any)
	found := gm["foundMerchants"].([]any)
	if len(found) != 1 || found[0].(map[string]any)["category"] != "Supermercado" || len(gm["notFoundMerchants"].([]any)) != 2 ||
		len(gm["invalidCnpjs"].([]any)) != 2 {
		t.Errorf("GraphQL merchants: %v", gm)
	}

	// Limits: none, more than 100, ten thousand, a NUL byte, an unknown parameter.
	env.Do(t, "GET", "/merchants", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/merchants?cnpjs=", key, nil).WantError(400, "INVALID_PARAMETER")
	many := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = carrefourCNPJ
		}
		return out
	}
	env.Do(t, "GET", "/merchants?cnpjs="+strings.Join(many(100), ","), key, nil).Want(200)
	env.Do(t, "GET", "/merchants?cnpjs="+strings.Join(many(101), ","), key, nil).WantError(400, "INVALID_PARAMETER")
	if r := env.Do(t, "GET", "/merchants?cnpjs="+strings.Join(many(10000), ","), key, nil); r.Status < 400 || r.Status >= 500 {
		t.Errorf("10,000 CNPJs: status %d, want a 4xx", r.Status)
	}
	env.GraphQL(t, key, `query($c: [String!]!) { merchants(cnpjs: $c) { invalidCnpjs } }`, map[string]any{"c": many(10000)}).WantCode(t, "INVALID_PARAMETER")
	env.Do(t, "GET", "/merchants?cnpjs=%00"+carrefourCNPJ, key, nil).WantError(400, "INVALID_PARAMETER")
	env.GraphQL(t, key, `query($c: [String!]!) { merchants(cnpjs: $c) { invalidCnpjs } }`,
		map[string]any{"c": []string{"\x00" + carrefourCNPJ}}).WantCode(t, "INVALID_PARAMETER")
	// Another control character reaches the lookup: an invalid entry is repeated printable
	// only, and at most 32 characters of it.
	ctl := env.GraphQL(t, key, `query($c: [String!]!) { merchants(cnpjs: $c) { invalidCnpjs } }`,
		map[string]any{"c": []string{"\x01" + carrefourCNPJ, strings.Repeat("9", 100000)}}).OK(t)
	if v := ctl["merchants"].(map[string]any)["invalidCnpjs"].([]any); len(v) != 2 || v[0] != "?"+carrefourCNPJ || v[1] != strings.Repeat("9", 32) {
		t.Errorf("hostile entries through GraphQL: %v", v)
	}
	env.Do(t, "GET", "/merchants?cnpj="+carrefourCNPJ, key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/merchants?cnpjs="+carrefourCNPJ, "", nil).Want(401)
}

// A transaction's merchant is the directory's: the same object GET /merchants answers.
func TestMerchantsTransactionsReadTheDirectory(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "merchants-tx").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	compared := 0
	for _, account := range env.AccountIDs(t, key, it.ID.String()) {
		for _, tx := range readAll(t, env, key, "/v2/transactions?accountId="+account, nil) {
			if tx.Merchant == nil || compared >= 5 {
				continue
			}
			var got model.MerchantLookup
			env.Do(t, "GET", "/merchants?cnpjs="+tx.Merchant.CNPJ, key, nil).Want(200).JSON(&got)
			if len(got.FoundMerchants) != 1 {
				t.Fatalf("transaction %s's merchant %s is not in the directory: %+v", tx.ID, tx.Merchant.CNPJ, got)
			}
			d := got.FoundMerchants[0]
			if d.Name != tx.Merchant.Name || d.BusinessName != tx.Merchant.BusinessName || *d.CNAE != *tx.Merchant.CNAE ||
				(d.Category == nil) != (tx.Merchant.Category == nil) || (d.Category != nil && *d.Category != *tx.Merchant.Category) {
				t.Errorf("transaction %s's merchant %+v, the directory's %+v", tx.ID, tx.Merchant, d)
			}
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no transaction of user-ok has a merchant: the comparison never ran")
	}
}
