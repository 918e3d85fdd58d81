package rest_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/rest"
	"ponte/testsupport"
)

// BenchmarkGraphQLRefusal prints the server time (from the handler's start to its return,
// the network left out) of the attack requests, sent without a key, as a ratio to
// an ordinary `{ __typename }` with a key measured in the same process.
//
//	go test -run '^$' -bench GraphQLRefusal -benchtime=1x ./rest/
func BenchmarkGraphQLRefusal(b *testing.B) {
	env := testsupport.New(b)
	key := env.NewClient(b, "graphql-refusal").APIKey
	var mu sync.Mutex
	var last time.Duration
	h := rest.New(env.Resolver, env.REST)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		mu.Lock()
		last = time.Since(start)
		mu.Unlock()
	}))
	defer srv.Close()
	timed := &testsupport.Env{T: b, URL: srv.URL}

	type attack struct {
		name string
		send func() int
	}
	post := func(k, query string) func() int {
		return func() int { return timed.Do(b, "POST", "/graphql", k, map[string]any{"query": query}).Status }
	}
	oneMiB := "{" + strings.Repeat("__typename ", (1<<20-64)/11) + "}"
	attacks := []attack{
		{"baseline: { __typename } with a key", post(key, "{ __typename }")},
		{"20,000 repeated fields (220 KB)", post("", repeatedFields(20_000))},
		{"24 nested fragments", post("", fragmentFanOut(24))},
		{"3,000 aliases", post("", aliasFlood(3_000))},
		{"1 MiB of repeated fields", post("", oneMiB)},
		{"10 MiB body, Content-Length", func() int { s, _ := rawPost(b, srv.URL, "/graphql", 10<<20, false); return s }},
		{"10 MiB body, chunked", func() int { s, _ := rawPost(b, srv.URL, "/graphql", 10<<20, true); return s }},
		{"a data query without a key", post("", "{ connectors { total } }")},
		{"GraphiQL's introspection, run", post("", graphiqlIntrospection)},
	}
	for b.Loop() {
		var base time.Duration
		for _, a := range attacks {
			var times []time.Duration
			status := 0
			for range 5 {
				status = a.send()
				mu.Lock()
				times = append(times, last)
				mu.Unlock()
			}
			slices.Sort(times)
			median := times[len(times)/2]
			if base == 0 {
				base = median
			}
			b.Logf("%-40s %d  server time median %9v  max %9v  (%6.1f× baseline)", a.name, status, median, times[len(times)-1], float64(median)/float64(base))
		}
	}
}
