package rest_test

import (
	"fmt"
	"regexp"
	"sort"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

func connectorIDs(t *testing.T, r *testsupport.Response) []int {
	t.Helper()
	var page model.ConnectorPage
	r.JSON(&page)
	ids := make([]int, 0, len(page.Results))
	for _, c := range page.Results {
		ids = append(ids, c.ID)
	}
	sort.Ints(ids)
	return ids
}

func TestConnectorFilters(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "connectors").APIKey

	// The statement-file connectors (900, 901, 910–920) are real ones: they read the files
	// every bank exports.
	files := []int{900, 901, 910, 911, 912, 913, 914, 915, 916, 917, 918, 919, 920}
	with := func(ids ...int) []int { return append(ids, files...) }
	cases := []struct {
		query string
		want  []int
	}{
		{"", with(2, 3, 4, 5, 7, 8, 9, 10)},
		{"?sandbox=true", with(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)},
		{"?sandbox=false", with(2, 3, 4, 5, 7, 8, 9, 10)},
		{"?countries=BR&sandbox=true&types=INVESTMENT,BUSINESS_BANK", []int{2, 3}},
		{"?types=TELECOMMUNICATION", []int{10}},
		{"?types=INVOICE", []int{}},
		{"?types=INVOICE,OTHER&sandbox=true", []int{11, 12, 13}},
		{"?isOpenFinance=true&sandbox=true", []int{5, 6}},
		{"?isOpenFinance=false", with(2, 3, 4, 7, 8, 9, 10)},
		{"?supportsPaymentInitiation=true&sandbox=true", []int{5, 6}},
		{"?supportsSmartTransfers=true&sandbox=true", []int{6}},
		{"?supportsAutomaticPix=true", []int{5}},
		// name-alike: case, accents and small typos do not matter
		{"?name=caixa%20economica%20sao%20joao", []int{9}},
		{"?name=CAIXA", []int{9, 917}},
		{"?name=ofx", []int{900}},
		{"?name=nubank", []int{910, 911}},
		{"?name=econômica", []int{9}},
		{"?name=aurora", []int{2}},
		{"?name=corretora%20horizonte", []int{3}},
		{"?name=horizonet", []int{3}},
		{"?name=jacaranda", []int{5}},
		{"?name=ponte&sandbox=true", []int{0, 1, 6}},
		{"?name=zzzzqqq", []int{}},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			got := connectorIDs(t, env.Do(t, "GET", "/connectors"+tc.query, key, nil).Want(200))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("ids %v, want %v", got, tc.want)
			}
		})
	}

	bad := []string{
		"?types=BANK", "?countries=AR", "?sandbox=maybe", "?healthDetails=2", "?page=0", "?pageSize=100000",
		"?pageSize=abc", "?nmae=x",
	}
	for _, q := range bad {
		t.Run("bad "+q, func(t *testing.T) {
			t.Parallel()
			env.Do(t, "GET", "/connectors"+q, key, nil).WantError(400, "INVALID_PARAMETER")
		})
	}
}

func TestConnectorPaging(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "paging").APIKey
	const total = 27 // 14 sandbox and simulated, 13 statement-file connectors
	var seen []int
	for page := 1; page <= 9; page++ {
		var p model.ConnectorPage
		env.Do(t, "GET", fmt.Sprintf("/connectors?sandbox=true&pageSize=3&page=%d", page), key, nil).Want(200).JSON(&p)
		if p.Total != total || p.TotalPages != 9 || p.Page != page {
			t.Fatalf("page %d envelope: total %d totalPages %d page %d", page, p.Total, p.TotalPages, p.Page)
		}
		for _, c := range p.Results {
			seen = append(seen, c.ID)
		}
	}
	once := map[int]bool{}
	for _, id := range seen {
		once[id] = true
	}
	if len(seen) != total || len(once) != total {
		t.Fatalf("paged through %v, want all %d connectors once", seen, total)
	}
}

func TestConnectorResource(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "connector").APIKey

	r := env.Do(t, "GET", "/connectors/0", key, nil).Want(200)
	m := r.Map()
	for _, field := range []string{"id", "name", "institutionUrl", "imageUrl", "primaryColor", "type", "country",
		"credentials", "hasMFA", "products", "oauth", "health", "isOpenFinance", "isSandbox",
		"supportsPaymentInitiation", "supportsScheduledPayments", "supportsSmartTransfers",
		"supportsBoletoManagement", "supportsAutomaticPix", "createdAt", "updatedAt"} {
		if _, ok := m[field]; !ok {
			t.Errorf("connector 0 lacks %s", field)
		}
	}
	if m["isSandbox"] != true || m["id"] != float64(0) {
		t.Fatalf("connector 0 must be the sandbox bank: %s", r.Body)
	}
	if _, ok := m["health"].(map[string]any)["details"]; ok {
		t.Fatal("health.details present without healthDetails=true")
	}
	dateRE := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	for _, f := range []string{"createdAt", "updatedAt"} {
		if s, _ := m[f].(string); !dateRE.MatchString(s) {
			t.Fatalf("%s = %q, want 2006-01-02T15:04:05.000Z", f, m[f])
		}
	}
	cred := m["credentials"].([]any)[0].(map[string]any)
	for _, f := range []string{"name", "label", "type", "validation", "validationMessage"} {
		if _, ok := cred[f]; !ok {
			t.Errorf("credential lacks %s: %v", f, cred)
		}
	}

	of := env.Do(t, "GET", "/connectors/5", key, nil).Want(200).Map()
	if of["oauth"] != true || len(of["productCoverage"].([]any)) == 0 || of["oauthUrl"] == nil {
		t.Fatalf("open finance connector lacks oauth/productCoverage: %v", of)
	}
	if _, ok := m["productCoverage"]; ok {
		t.Fatal("direct connector carries productCoverage")
	}

	t.Run("health details", func(t *testing.T) {
		h := env.Do(t, "GET", "/connectors/7?healthDetails=true", key, nil).Want(200).Map()["health"].(map[string]any)
		if h["status"] != "OFFLINE" {
			t.Fatalf("connector 7 health %v", h)
		}
		d, ok := h["details"].(map[string]any)
		if !ok {
			t.Fatalf("no details: %v", h)
		}
		for _, f := range []string{"connectionRateLast6Hours", "connectionsLast6Hours", "errorRateLast6Hours", "error"} {
			if _, ok := d[f]; !ok {
				t.Errorf("details lack %s: %v", f, d)
			}
		}
		beta := env.Do(t, "GET", "/connectors/8", key, nil).Want(200).Map()["health"].(map[string]any)
		if beta["stage"] != "BETA" || beta["status"] != "UNSTABLE" {
			t.Fatalf("connector 8 health %v", beta)
		}
		var page model.ConnectorPage
		env.Do(t, "GET", "/connectors?healthDetails=true", key, nil).Want(200).JSON(&page)
		for _, c := range page.Results {
			if c.Health.Details == nil {
				t.Fatalf("connector %d lacks details in list", c.ID)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		env.Do(t, "GET", "/connectors/9999", key, nil).WantError(404, "CONNECTOR_NOT_FOUND")
		env.Do(t, "GET", "/connectors/abc", key, nil).WantError(400, "INVALID_PARAMETER")
		env.Do(t, "GET", "/connectors/0?foo=1", key, nil).WantError(400, "INVALID_PARAMETER")
		env.Do(t, "POST", "/connectors/9999/validate", key, map[string]any{}).WantError(404, "CONNECTOR_NOT_FOUND")
	})
}

func TestValidateParameters(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "validate").APIKey

	type verr struct{ Code, Parameter string }
	cases := []struct {
		name      string
		connector int
		params    map[string]any
		want      []verr
	}{
		{"valid", 0, map[string]any{"user": "user-ok", "password": "password-ok"}, nil},
		{"both missing", 0, map[string]any{}, []verr{{"001", "user"}, {"001", "password"}}},
		{"empty is missing", 0, map[string]any{"user": "", "password": "password-ok"}, []verr{{"001", "user"}}},
		{"regex broken", 0, map[string]any{"user": "a", "password": "123"}, []verr{{"002", "user"}, {"002", "password"}}},
		{"mfa not required up front", 1, map[string]any{"user": "user-ok", "password": "password-ok"}, nil},
		{"mfa checked when given", 1, map[string]any{"user": "user-ok", "password": "password-ok", "token": "12"}, []verr{{"002", "token"}}},
		{"select option", 2, map[string]any{"cnpj": "12345678000195", "cpf": "12345678909", "password": "12345678", "profile": "boss"}, []verr{{"002", "profile"}}},
		{"select ok", 2, map[string]any{"cnpj": "12345678000195", "cpf": "12345678909", "password": "12345678", "profile": "master"}, nil},
		{"optional may be absent", 10, map[string]any{"cpf": "12345678909"}, nil},
		{"wrong type", 0, map[string]any{"user": 12, "password": "password-ok"}, []verr{{"002", "user"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var res model.ValidationResult
			env.Do(t, "POST", fmt.Sprintf("/connectors/%d/validate", tc.connector), key, tc.params).Want(200).JSON(&res)
			var got []verr
			for _, e := range res.Errors {
				if e.Message == "" {
					t.Errorf("error for %s has no message", e.Parameter)
				}
				got = append(got, verr{e.Code, e.Parameter})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("errors %v, want %v", got, tc.want)
			}
			if len(res.Parameters) != len(tc.params) {
				t.Fatalf("parameters echoed %v, want %v", res.Parameters, tc.params)
			}
		})
	}
}
