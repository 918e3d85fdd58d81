package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// BenchmarkCapacity steps a constant request rate (open loop, from a second process) up
// against four reads of the service and of a minimal baseline server on the same data, in
// the same run, and prints for each the knee: the highest rate whose p99 stays under 25 ms
// with no errors and the rate achieved, to within 5% (capacityLadder). It also prints
// the CPU each spent per request (this process's and PostgreSQL's, measured around the
// generator), the steadier figure: the knee is where that CPU fills the cores. The
// baseline is what the route costs with nothing around it: net/http, pgx queries on the
// service's own pool, encoding/json (and, for POST /auth, the service's own secret check
// and signing, which are the route's real cost). Rate limits are raised out of the way but
// still counted in PostgreSQL, as replicas do. Answers are asked for uncompressed, so both
// sides send the same bytes (the generator's comment says why). Run with -benchtime=1x;
// PONTE_CAPACITY_STEP sets seconds per step (default 4), PONTE_CAPACITY_CLIMBS the climbs
// whose median is each knee (default 3), PONTE_CAPACITY_ROUTES picks routes by name
// (default all).
func BenchmarkCapacity(b *testing.B) {
	env, c, item, account := capacityFixture(b, "user-ok-perf-20", "ACCOUNTS", "TRANSACTIONS")

	// The service's pages of the account, and the baseline's.
	var txPaths []string
	for path := "/v2/transactions?accountId=" + account.String(); ; {
		txPaths = append(txPaths, path)
		var p struct {
			Next *string `json:"next"`
		}
		env.Do(b, "GET", path, c.APIKey, nil).Want(200).JSON(&p)
		if p.Next == nil {
			break
		}
		path = "/v2/transactions" + *p.Next
	}
	baseline := httptest.NewServer(capacityBaseline(b, env, account))
	defer baseline.Close()
	var basePaths []string
	for q := ""; ; {
		basePaths = append(basePaths, "/tx?"+q)
		var p struct {
			Next string `json:"next"`
		}
		resp, err := http.Get(baseline.URL + "/tx?" + q)
		if err != nil {
			b.Fatal(err)
		}
		_ = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if p.Next == "" {
			break
		}
		q = p.Next
	}

	dashboard := dashboardBody(b, env, c.APIKey, item, account)
	authBody, _ := json.Marshal(map[string]any{"clientId": c.ID, "clientSecret": c.Secret})
	// POST /auth verifies an argon2id hash, about 25 ms of one core by design (OWASP's
	// parameters), the first time a secret is seen; both sides then answer a repeated
	// secret from memory (auth's verifiedSecrets), as clients' repeated logins are. The
	// baseline reads the client's row on every call, as a minimal server would: its
	// auth.Service runs no listener for client changes, so its client cache stays off.
	// The service's listener lets it answer a repeated login from that cache.
	routes := []struct {
		name       string
		ours, base testsupport.LoadSpec
		bound      time.Duration
	}{
		{"GET /v2/transactions (500 rows)", testsupport.LoadSpec{BaseURL: env.URL, Key: c.APIKey, Paths: txPaths},
			testsupport.LoadSpec{BaseURL: baseline.URL, Paths: basePaths}, 25 * time.Millisecond},
		{"GET /accounts", testsupport.LoadSpec{BaseURL: env.URL, Key: c.APIKey, Paths: []string{"/accounts?itemId=" + item}},
			testsupport.LoadSpec{BaseURL: baseline.URL, Paths: []string{"/accounts"}}, 25 * time.Millisecond},
		{"POST /auth", testsupport.LoadSpec{BaseURL: env.URL, Paths: []string{"/auth"}, Method: "POST", Body: string(authBody)},
			testsupport.LoadSpec{BaseURL: baseline.URL, Paths: []string{"/auth"}, Method: "POST", Body: string(authBody)}, 25 * time.Millisecond},
		{"POST /graphql (dashboard)", testsupport.LoadSpec{BaseURL: env.URL, Key: c.APIKey, Paths: []string{"/graphql"}, Method: "POST", Body: dashboard},
			testsupport.LoadSpec{BaseURL: baseline.URL, Paths: []string{"/dashboard"}}, 25 * time.Millisecond},
	}
	step := 4 * time.Second
	if s, err := strconv.Atoi(os.Getenv("PONTE_CAPACITY_STEP")); err == nil && s > 0 {
		step = time.Duration(s) * time.Second
	}
	// The pool's connections are opened before anything is measured, as a server that has
	// been up a while has them: a new PostgreSQL process is slow until its caches fill, and
	// whichever server first met a rate that grew the pool paid for it.
	held := make([]*pgxpool.Conn, 0, env.DB.Pool.Config().MaxConns)
	for range cap(held) {
		c, err := env.DB.Pool.Acquire(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		held = append(held, c)
	}
	for _, c := range held {
		c.Release()
	}
	// Coarse steps of a half or less, each side's last one then bisected (capacityLadder).
	// Up to 12,800/s: a repeated login held 9,600/s, the top before, in every climb of a
	// run, so its knee read as the top's and its ratio as the baseline's distance from it.
	rates := []int{10, 25, 50, 100, 200, 300, 400, 600, 800, 1200, 1600, 2400, 3200, 4800, 6400, 8000, 9600, 11200, 12800}
	// Each side's knee is the median of three climbs: one slow second on this shared
	// machine ends a climb a step or more early, on either side, and a median of three
	// needs two such seconds to move.
	climbs := 3
	if n, err := strconv.Atoi(os.Getenv("PONTE_CAPACITY_CLIMBS")); err == nil && n > 0 {
		climbs = n
	}
	b.ResetTimer()
	var table []string
	for i := 0; i < b.N; i++ {
		for _, r := range routes {
			if want := os.Getenv("PONTE_CAPACITY_ROUTES"); want != "" && !slices.ContainsFunc(strings.Split(want, ","), func(w string) bool { return strings.Contains(r.name, w) }) {
				continue
			}
			// One second of calls first, unmeasured, for both: a first call pays once what
			// a running server has already paid (POST /auth's first hash of a secret).
			for _, spec := range []testsupport.LoadSpec{r.ours, r.base} {
				spec.Rate, spec.Duration = 10, time.Second
				if _, err := testsupport.RunLoad(spec); err != nil {
					b.Fatal(err)
				}
			}
			var knees [2][]int
			var topped [2][]bool // a climb that held the top rate: its knee is a lower bound
			var costs [2][]testsupport.CPUSpent
			from := 0
			for climb := range climbs {
				ladders := [2]*capacityLadder{newCapacityLadder(rates[from:]), newCapacityLadder(rates[from:])}
				climbInTurns(b, r.name, [2]testsupport.LoadSpec{r.ours, r.base}, r.bound, step, ladders)
				c := capacityCosts(ladders[0], ladders[1])
				for k := range 2 {
					knees[k] = append(knees[k], ladders[k].knee)
					topped[k] = append(topped[k], ladders[k].failed == 0)
					costs[k] = append(costs[k], c[k])
				}
				// Later climbs start at the highest coarse rate at most half the first climb's
				// lower knee: the steps below it tell nothing new, and they were a third of a
				// climb.
				if climb == 0 {
					low := min(ladders[0].knee, ladders[1].knee)
					for from+1 < len(rates) && rates[from+1] <= low/2 {
						from++
					}
				}
			}
			knee := [2]int{median(knees[0]), median(knees[1])}
			ratio := 0.0
			if knee[1] > 0 {
				ratio = float64(knee[0]) / float64(knee[1])
			}
			cost := [2]testsupport.CPUSpent{medianCost(costs[0]), medianCost(costs[1])}
			costRatio := 0.0
			if c := cost[0].Server + cost[0].Database; c > 0 {
				costRatio = float64(cost[1].Server+cost[1].Database) / float64(c)
			}
			show := func(k int) string {
				climbs := make([]string, len(knees[k]))
				for i, n := range knees[k] {
					climbs[i] = strconv.Itoa(n)
					if topped[k][i] {
						climbs[i] += "+"
					}
				}
				return fmt.Sprintf("%d/s (%s)", knee[k], strings.Join(climbs, ", "))
			}
			showCost := func(c testsupport.CPUSpent) string {
				return fmt.Sprintf("%d µs (%d + %d)", (c.Server + c.Database).Microseconds(), c.Server.Microseconds(), c.Database.Microseconds())
			}
			table = append(table, fmt.Sprintf("| %s | %s | %s | %s | %.2f | %s | %s | %.2f |", r.name, r.bound, show(0), show(1), ratio,
				showCost(cost[0]), showCost(cost[1]), costRatio))
			b.ReportMetric(float64(knee[0]), strings.ReplaceAll(strings.Fields(r.name)[1], "/", "_")+"-knee/s")
		}
	}
	b.StopTimer()
	fmt.Fprintf(os.Stderr, "knees (highest rate with p99 under the bound, no errors: the median, then each climb's, + when it held the top rate), and CPU per request (server + PostgreSQL) at the highest rate both held (the median of the climbs'):\n| Route | p99 bound | Service | Baseline | Ratio | Service CPU | Baseline CPU | Ratio |\n|---|---|---|---|---|---|---|---|\n%s\n", strings.Join(table, "\n"))
}

// dashboardBody is the dashboard query: an item's accounts and the first 50 transactions
// of one of them, as the baseline's /dashboard reads them. It fails b unless the service
// answers it with those rows and no error: a GraphQL error is a 200 too, which the
// benchmarks would measure as a success.
func dashboardBody(b testing.TB, env *testsupport.Env, key, item string, account uuid.UUID) string {
	body, _ := json.Marshal(map[string]any{"query": `query($i: UUID!, $a: UUID!) { accounts(itemId: $i) { results { id name balance type subtype } }
		account(id: $a) { transactions(first: 50) { nodes { ` + dashboardFields + ` } } } }`, "variables": map[string]any{"i": item, "a": account}})
	var got struct {
		Errors []any `json:"errors"`
		Data   struct {
			Account struct {
				Transactions struct{ Nodes []any } `json:"transactions"`
			} `json:"account"`
		} `json:"data"`
	}
	env.Do(b, "POST", "/graphql", key, body).Want(200).JSON(&got)
	if len(got.Errors) > 0 || len(got.Data.Account.Transactions.Nodes) != 50 {
		b.Fatalf("the dashboard answered %d rows and errors %v", len(got.Data.Account.Transactions.Nodes), got.Errors)
	}
	return string(body)
}

// climbInTurns runs the two sides' ladders (the service's, then the baseline's) in turns,
// one step each, so both meet the same machine.
func climbInTurns(b *testing.B, name string, specs [2]testsupport.LoadSpec, bound, step time.Duration, ladders [2]*capacityLadder) {
	for turn := 0; ladders[0].next() > 0 || ladders[1].next() > 0; turn++ {
		// Who goes first changes each turn: the second found the first's aftermath
		// (measured: a server's knee moved two steps with the order).
		order := []int{0, 1}
		if turn%2 == 1 {
			order = []int{1, 0}
		}
		for _, k := range order {
			rate := ladders[k].next()
			if rate == 0 {
				continue
			}
			spec := specs[k]
			spec.Rate, spec.Duration = rate, step
			var ok bool
			var cpu testsupport.CPUSpent
			// A failed step gets a second try after a pause, the same for both: on a
			// shared machine one slow second (another tenant, a checkpoint) moves a knee a
			// step, and a server near its limit does not recover from a backlog within the
			// step.
			for try := 0; try < 2 && !ok; try++ {
				if try > 0 {
					time.Sleep(2 * time.Second)
				}
				res, err := testsupport.RunLoad(spec)
				if err != nil {
					b.Fatal(err)
				}
				ok = res.Errors == 0 && res.P99 < bound && res.Achieved >= 0.95*float64(rate)
				cpu = res.CPU.PerRequest(res.Sent + res.Warmed)
				// Stderr, not b.Logf: the testing package cuts a benchmark's log short.
				fmt.Fprintf(os.Stderr, "%-32s %-8s %5d/s: achieved %6.0f/s, %d errors, p50 %7s p99 %8s; CPU per request: server %s, PostgreSQL %s, generator %s\n",
					name, [2]string{"service", "baseline"}[k], rate, res.Achieved, res.Errors, res.P50.Round(10*time.Microsecond), res.P99.Round(10*time.Microsecond),
					cpu.Server.Round(time.Microsecond), cpu.Database.Round(time.Microsecond), cpu.Generator.Round(time.Microsecond))
			}
			ladders[k].record(rate, ok, cpu)
		}
	}
}

// capacityFixture starts a service whose rate limits are raised out of the way but still
// counted in PostgreSQL, as replicas do, with a client and a synced item of the sandbox
// user: it returns them and the item's checking account.
func capacityFixture(b testing.TB, user string, products ...string) (*testsupport.Env, *testsupport.Client, string, uuid.UUID) {
	unlimited := map[string]int{}
	for group := range auth.RateLimits {
		unlimited[group] = 1 << 30
	}
	env := testsupport.New(b, func(s *testsupport.Setup) {
		s.Resolver.Limiter = auth.NewSharedLimiter(unlimited, s.DB.CountRequests)
		// As ponte serve runs by default: the tests' count of each GraphQL query's
		// statements (extensions.sqlStatements) is work a deployed service does not do.
		s.Resolver.CountStatements = nil
	})
	c := env.NewClient(b, "capacity")
	var it model.Item
	env.Do(b, "POST", "/items", c.APIKey, map[string]any{"connectorId": 0, "products": products,
		"parameters": map[string]any{"user": user, "password": "password-ok"}}).Want(200).JSON(&it)
	item := it.ID.String()
	testsupport.Eventually(b, "the sync", 10*time.Minute, func() bool { return testsupport.Settled(env.Item(b, c.APIKey, item)) })
	var accounts model.AccountPage
	env.Do(b, "GET", "/accounts?itemId="+item, c.APIKey, nil).Want(200).JSON(&accounts)
	var account uuid.UUID
	for _, a := range accounts.Results {
		if a.Subtype == "CHECKING_ACCOUNT" {
			account = a.ID
		}
	}
	return env, c, item, account
}

// capacityBaseline serves the same reads with nothing around them.
func capacityBaseline(b testing.TB, env *testsupport.Env, account uuid.UUID) http.Handler {
	itemOf := func() uuid.UUID {
		var id uuid.UUID
		if err := env.DB.Pool.QueryRow(b.Context(), `SELECT item_id FROM accounts WHERE id = $1`, account).Scan(&id); err != nil {
			b.Fatal(err)
		}
		return id
	}()
	rawRows := func(r *http.Request, q string, args ...any) ([]json.RawMessage, error) {
		rows, err := env.DB.Pool.Query(r.Context(), q, args...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []json.RawMessage
		for rows.Next() {
			var raw []byte
			if err := rows.Scan(&raw); err != nil {
				return nil, err
			}
			out = append(out, raw)
		}
		return out, rows.Err()
	}
	a := auth.NewService(env.DB, testsupport.MasterKey)
	mux := http.NewServeMux()
	mux.HandleFunc("/tx", baselineTxPages(env, account))
	mux.HandleFunc("/accounts", func(w http.ResponseWriter, r *http.Request) {
		rows, err := rawRows(r, `SELECT data FROM accounts WHERE item_id = $1 ORDER BY type DESC, subtype, id`, itemOf)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"results": rows, "total": len(rows), "page": 1, "totalPages": 1})
	})
	mux.HandleFunc("/auth", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ ClientID, ClientSecret string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		key, err := a.Authenticate(r.Context(), in.ClientID, in.ClientSecret)
		if err != nil {
			http.Error(w, err.Error(), 401)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(key)
	})
	mux.HandleFunc("/dashboard", func(w http.ResponseWriter, r *http.Request) {
		accts, err := rawRows(r, `SELECT data FROM accounts WHERE item_id = $1 ORDER BY type DESC, subtype, id`, itemOf)
		if err == nil {
			var txs []json.RawMessage
			if txs, err = rawRows(r, `SELECT data FROM transactions WHERE account_id = $1 ORDER BY date, id LIMIT 50`, account); err == nil {
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"accounts": map[string]any{"results": accts},
					"account": map[string]any{"transactions": map[string]any{"nodes": txs}}}})
				return
			}
		}
		http.Error(w, err.Error(), 500)
	})
	return mux
}
