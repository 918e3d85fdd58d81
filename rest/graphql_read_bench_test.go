package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// dashboardFields is the dashboard read of a transaction: what a typed client
// shows in a table.
const dashboardFields = `id date description type amount currencyCode category categoryId status operationType balance createdAt merchant { name cnpj }`

// allTxFields is every field of Transaction and of the objects below it.
const allTxFields = `id accountId date description descriptionRaw type amount amountInAccountCurrency balance currencyCode
	category categoryId status providerCode providerId operationType operationTypeAdditionalInfo order createdAt updatedAt
	merchant { name businessName cnpj cnae category }
	creditCardMetadata { installmentNumber totalInstallments totalAmount payeeMCC purchaseDate billId cardNumber
		feeType feeTypeAdditionalInfo otherCreditsType otherCreditsAdditionalInfo billForecastDate }
	paymentData { paymentMethod referenceNumber reason receiverReferenceId
		payer { name accountNumber branchNumber routingNumber routingNumberISPB documentNumber { type value } }
		receiver { name accountNumber branchNumber routingNumber routingNumberISPB documentNumber { type value } }
		boletoMetadata { digitableLine barcode baseAmount penaltyAmount interestAmount discountAmount } }`

// accountTxQuery reads one page of an account's transactions the way a dashboard does,
// through Account.transactions.
func accountTxQuery(selection string) string {
	return `query($a: UUID!, $after: String) { account(id: $a) { transactions(first: 500, after: $after) {
		pageInfo { hasNextPage endCursor } ` + selection + ` } } }`
}

// BenchmarkGraphQLDashboardRead compares, in one process and over loopback HTTP, the pages
// of one account read through GET /v2/transactions (500 rows a page) with the same rows read
// through GraphQL: the typed dashboard selection, every field of a transaction,
// and the stored documents. It prints per-request medians and the GraphQL/REST ratios,
// sequentially and with 4 and 8 concurrent readers; nothing is asserted on time. Run with
// -benchtime=1x; PONTE_DASHBOARD_USER picks the sandbox user (default user-ok-perf-10, a
// few thousand rows on the checking account), PONTE_DASHBOARD_ROUNDS the passes per
// measure (default 4).
func BenchmarkGraphQLDashboardRead(b *testing.B) {
	env := testsupport.New(b)
	key := env.NewClient(b, "dashboard bench").APIKey
	user := os.Getenv("PONTE_DASHBOARD_USER")
	if user == "" {
		user = "user-ok-perf-10"
	}
	rounds := 4
	if n, err := fmt.Sscan(os.Getenv("PONTE_DASHBOARD_ROUNDS"), &rounds); n != 1 || err != nil || rounds < 1 {
		rounds = 4
	}
	setup := time.Now()
	var it model.Item
	env.Do(b, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": user, "password": "password-ok"}}).Want(200).JSON(&it)
	deadline := time.Now().Add(5 * time.Minute)
	for !testsupport.Settled(env.Item(b, key, it.ID.String())) {
		if time.Now().After(deadline) {
			b.Fatal("sync did not finish")
		}
		time.Sleep(100 * time.Millisecond)
	}
	account := checkingAccount(b, env, key, it.ID)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	// send times one request up to the last byte of the answer.
	send := func(method, url string, body []byte) ([]byte, time.Duration) {
		req, _ := http.NewRequest(method, url, bytes.NewReader(body))
		req.Header.Set("X-API-KEY", key)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		d := time.Since(start)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, out[:min(len(out), 300)])
		}
		return out, d
	}

	// The REST pages, and the GraphQL cursors that start the same pages.
	var restURLs []string
	var rowsPerPage []int
	path := "/v2/transactions?accountId=" + account.String() + ""
	for {
		restURLs = append(restURLs, env.URL+path)
		out, _ := send("GET", env.URL+path, nil)
		var p struct {
			Results []json.RawMessage `json:"results"`
			Next    *string           `json:"next"`
		}
		if err := json.Unmarshal(out, &p); err != nil {
			b.Fatal(err)
		}
		rowsPerPage = append(rowsPerPage, len(p.Results))
		if p.Next == nil {
			break
		}
		path = "/v2/transactions" + *p.Next
	}
	type graphQLPage struct {
		Data struct {
			Account struct {
				Transactions struct {
					PageInfo struct {
						HasNextPage bool    `json:"hasNextPage"`
						EndCursor   *string `json:"endCursor"`
					} `json:"pageInfo"`
					Nodes     []json.RawMessage `json:"nodes"`
					Documents []json.RawMessage `json:"documents"`
				} `json:"transactions"`
			} `json:"account"`
		} `json:"data"`
		Errors []any `json:"errors"`
	}
	graphQL := func(selection string, after *string) []byte {
		body, _ := json.Marshal(map[string]any{"query": accountTxQuery(selection), "variables": map[string]any{"a": account, "after": after}})
		return body
	}
	afters := []*string{nil}
	for page := 0; ; page++ {
		out, _ := send("POST", env.URL+"/graphql", graphQL("nodes { id }", afters[page]))
		var p graphQLPage
		if err := json.Unmarshal(out, &p); err != nil || len(p.Errors) > 0 {
			b.Fatalf("GraphQL page %d: %v %s", page, err, out[:min(len(out), 300)])
		}
		if page >= len(rowsPerPage) || len(p.Data.Account.Transactions.Nodes) != rowsPerPage[page] {
			b.Fatalf("GraphQL page %d has %d rows, REST's pages %v", page, len(p.Data.Account.Transactions.Nodes), rowsPerPage)
		}
		if !p.Data.Account.Transactions.PageInfo.HasNextPage {
			break
		}
		afters = append(afters, p.Data.Account.Transactions.PageInfo.EndCursor)
	}
	if len(afters) != len(restURLs) {
		b.Fatalf("GraphQL read %d pages, REST %d", len(afters), len(restURLs))
	}
	total := 0
	for _, n := range rowsPerPage {
		total += n
	}
	b.Logf("%s: %d transactions on the checking account in %d pages of up to 500; setup %s", user, total, len(restURLs), time.Since(setup).Round(time.Millisecond))

	// A reader requests page i of the account and checks the answer (outside the timing).
	type reader struct {
		name string
		read func(page int) time.Duration
	}
	graphQLReader := func(name, selection string, docs bool) reader {
		bodies := make([][]byte, len(afters))
		for i, a := range afters {
			bodies[i] = graphQL(selection, a)
		}
		return reader{name, func(page int) time.Duration {
			out, d := send("POST", env.URL+"/graphql", bodies[page])
			var p graphQLPage
			if err := json.Unmarshal(out, &p); err != nil || len(p.Errors) > 0 {
				b.Fatalf("%s page %d: %v %s", name, page, err, out[:min(len(out), 300)])
			}
			got := len(p.Data.Account.Transactions.Nodes)
			if docs {
				got = len(p.Data.Account.Transactions.Documents)
			}
			if got != rowsPerPage[page] {
				b.Fatalf("%s page %d: %d rows, REST %d", name, page, got, rowsPerPage[page])
			}
			return d
		}}
	}
	readers := []reader{
		{"GET /v2/transactions", func(page int) time.Duration {
			out, d := send("GET", restURLs[page], nil)
			var p struct {
				Results []json.RawMessage `json:"results"`
			}
			if err := json.Unmarshal(out, &p); err != nil || len(p.Results) != rowsPerPage[page] {
				b.Fatalf("REST page %d: %v, %d rows", page, err, len(p.Results))
			}
			return d
		}},
		graphQLReader("GraphQL typed (dashboard)", "nodes { "+dashboardFields+" }", false),
		graphQLReader("GraphQL every field", "nodes { "+allTxFields+" }", false),
		graphQLReader("GraphQL documents", "documents", true),
	}

	median := func(l []time.Duration) time.Duration {
		s := append([]time.Duration(nil), l...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	// sequential: every page through every reader, interleaved, so drift of the machine
	// touches all readers alike.
	sequential := func() []time.Duration {
		lat := make([][]time.Duration, len(readers))
		for range rounds {
			for page := range restURLs {
				for k, r := range readers {
					lat[k] = append(lat[k], r.read(page))
				}
			}
		}
		out := make([]time.Duration, len(readers))
		for k := range readers {
			out[k] = median(lat[k])
		}
		return out
	}
	// concurrent: n readers of one kind at once, sharing 2×rounds passes over the pages
	// (so every level costs about the same); the kinds take turns, twice, and the lower
	// median of the two turns counts.
	concurrent := func(n int) []time.Duration {
		each := (2*rounds*len(restURLs) + n - 1) / n
		out := make([]time.Duration, len(readers))
		for turn := range 2 {
			for k, r := range readers {
				var mu sync.Mutex
				var lat []time.Duration
				var wg sync.WaitGroup
				for w := range n {
					wg.Go(func() {
						var mine []time.Duration
						for i := range each {
							mine = append(mine, r.read((i+w)%len(restURLs)))
						}
						mu.Lock()
						lat = append(lat, mine...)
						mu.Unlock()
					})
				}
				wg.Wait()
				if m := median(lat); turn == 0 || m < out[k] {
					out[k] = m
				}
			}
		}
		return out
	}

	// One untimed pass warms PostgreSQL's cache and the connections.
	for page := range restURLs {
		for _, r := range readers {
			r.read(page)
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, c := range []int{1, 4, 8} {
			var med []time.Duration
			mode := "sequential"
			if c == 1 {
				med = sequential()
			} else {
				med = concurrent(c)
				mode = fmt.Sprintf("%d concurrent readers", c)
			}
			for k, r := range readers {
				ratio := float64(med[k]) / float64(med[0])
				b.Logf("%-22s %-26s median %8s per 500-row page; %.2f× REST", mode, r.name, med[k].Round(10*time.Microsecond), ratio)
			}
			b.ReportMetric(float64(med[1])/float64(med[0]), fmt.Sprintf("typed/REST-c%d", c))
			b.ReportMetric(float64(med[2])/float64(med[0]), fmt.Sprintf("all/REST-c%d", c))
		}
	}
}

// checkingAccount is the item's checking account.
func checkingAccount(t testing.TB, env *testsupport.Env, key string, item uuid.UUID) uuid.UUID {
	t.Helper()
	var accounts model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+item.String()+"&type=BANK", key, nil).Want(200).JSON(&accounts)
	for _, a := range accounts.Results {
		if a.Subtype == "CHECKING_ACCOUNT" {
			return a.ID
		}
	}
	t.Fatalf("item %s has no checking account", item)
	return uuid.Nil
}
