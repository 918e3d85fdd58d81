package rest_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/rest"
	"ponte/testsupport"
)

// JSON answers of rest.CompressMinSize or more are gzipped for a client that asks, and decode to the very
// bytes the client gets without asking; small answers and pages are sent as they are.
// Answers to a client that asks for no encoding carry no Vary.
func TestCompression(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "compression").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	page := "/v2/transactions?accountId=" + checkingAccount(t, env, key, it.ID).String()
	gz := map[string]string{"Accept-Encoding": "gzip"}

	plain := env.DoHeaders(t, "GET", page, key, nil, map[string]string{"Accept-Encoding": "identity"}).Want(200)
	packed := env.DoHeaders(t, "GET", page, key, nil, gz).Want(200)
	if plain.Header.Get("Content-Encoding") != "" || packed.Header.Get("Content-Encoding") != "gzip" ||
		!strings.Contains(packed.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("encodings: identity %q, gzip %q (Vary %q)", plain.Header.Get("Content-Encoding"),
			packed.Header.Get("Content-Encoding"), packed.Header.Get("Vary"))
	}
	if got := gunzip(t, packed.Body); !bytes.Equal(got, plain.Body) {
		t.Fatalf("the gzipped page decodes to %d bytes, the plain one has %d", len(got), len(plain.Body))
	}
	if len(packed.Body)*4 > len(plain.Body) {
		t.Fatalf("a page of %d bytes gzipped to %d", len(plain.Body), len(packed.Body))
	}
	// A client that sends no Accept-Encoding gets the same bytes without gzhttp's Vary:
	// there was nothing to negotiate, and any client reads an answer as it is.
	req, err := http.NewRequest("GET", env.URL+page, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-KEY", key)
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || !bytes.Equal(bare, plain.Body) || resp.Header.Get("Vary") != "" || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("without Accept-Encoding: status %d, %d bytes of %d, Vary %q, Content-Encoding %q (%v)", resp.StatusCode, len(bare), len(plain.Body),
			resp.Header.Get("Vary"), resp.Header.Get("Content-Encoding"), err)
	}
	// The security headers survive the wrapping.
	if packed.Header.Get("X-Content-Type-Options") != "nosniff" || packed.Header.Get("Content-Type") != plain.Header.Get("Content-Type") {
		t.Fatalf("headers of the gzipped answer: %v", packed.Header)
	}
	for _, path := range []string{"/healthz", "/connectors/0", "/connectors?sandbox=true"} {
		r := env.DoHeaders(t, "GET", path, key, nil, gz).Want(200)
		if body := r.Body; r.Header.Get("Content-Encoding") == "gzip" {
			if body = gunzip(t, r.Body); len(body) < rest.CompressMinSize {
				t.Fatalf("%s (%d bytes) was compressed", path, len(body))
			}
		} else if len(body) >= rest.CompressMinSize {
			t.Fatalf("%s (%d bytes) was not compressed", path, len(body))
		}
	}
	if r := env.DoHeaders(t, "GET", "/graphiql", "", nil, gz).Want(200); r.Header.Get("Content-Encoding") != "" {
		t.Fatalf("the GraphiQL page was compressed: %v", r.Header)
	}
	// A GraphQL answer is assembled whole, so it states its length (a refusal's too), and a
	// large one is gzipped like a REST page.
	query := map[string]any{"query": accountTxQuery("nodes { " + dashboardFields + " }"), "variables": map[string]any{"a": checkingAccount(t, env, key, it.ID)}}
	plainQL := env.DoHeaders(t, "POST", "/graphql", key, query, map[string]string{"Accept-Encoding": "identity"}).Want(200)
	refused := env.DoHeaders(t, "POST", "/graphql", key, map[string]any{"query": "{ nope }"}, nil).Want(422)
	for _, r := range []*testsupport.Response{plainQL, refused} {
		if r.Header.Get("Content-Length") != strconv.Itoa(len(r.Body)) {
			t.Fatalf("a GraphQL answer of %d bytes said Content-Length %q", len(r.Body), r.Header.Get("Content-Length"))
		}
	}
	packedQL := env.DoHeaders(t, "POST", "/graphql", key, query, gz).Want(200)
	if len(plainQL.Body) < rest.CompressMinSize || packedQL.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, packedQL.Body), plainQL.Body) {
		t.Fatalf("a GraphQL answer of %d bytes: Content-Encoding %q, %d bytes on the wire", len(plainQL.Body), packedQL.Header.Get("Content-Encoding"), len(packedQL.Body))
	}
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return out
}

// BenchmarkCompression reads one account's 500-row pages of GET /v2/transactions with and
// without Accept-Encoding: gzip, in one process over loopback, and prints the bytes on the
// wire per page, the median time to the last byte (the client's gunzip not included) and
// pages per second, sequentially and with 4 readers. Nothing is asserted on time.
func BenchmarkCompression(b *testing.B) {
	env := testsupport.New(b)
	key := env.NewClient(b, "compression bench").APIKey
	it := createItemTB(b, env, key, "user-ok-perf-10")
	pages := pageURLs(b, env, key, "/v2/transactions?accountId="+checkingAccount(b, env, key, it).String())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, DisableCompression: true}}
	read := func(url, encoding string) (int, time.Duration) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("X-API-KEY", key)
		req.Header.Set("Accept-Encoding", encoding)
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s: %d %v", url, resp.StatusCode, err)
		}
		return int(n), time.Since(start)
	}
	for _, p := range pages { // warm the cache and the connections
		read(p, "identity")
		read(p, "gzip")
	}
	b.ResetTimer()
	for range b.N {
		for _, readers := range []int{1, 4} {
			base := 0.0
			for _, enc := range []string{"identity", "gzip"} {
				var mu sync.Mutex
				var lat []time.Duration
				bytesPerPage := 0
				start := time.Now()
				var wg sync.WaitGroup
				for w := range readers {
					wg.Go(func() {
						for i := range 3 * len(pages) {
							n, d := read(pages[(i+w)%len(pages)], enc)
							mu.Lock()
							lat = append(lat, d)
							bytesPerPage += n
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				rate := float64(len(lat)) / time.Since(start).Seconds()
				if base == 0 {
					base = rate
				}
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.Logf("%d reader(s) %-8s %7d bytes/page  median %8s  %6.1f pages/s (%.2f× identity)", readers, enc,
					bytesPerPage/len(lat), lat[len(lat)/2].Round(10*time.Microsecond), rate, rate/base)
				b.ReportMetric(rate, fmt.Sprintf("pages/s-%s-c%d", enc, readers))
			}
		}
	}
}

// createItemTB creates a connector-0 item for a sandbox user and waits for its sync.
func createItemTB(t testing.TB, env *testsupport.Env, key, user string) uuid.UUID {
	t.Helper()
	var it struct{ ID uuid.UUID }
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": user, "password": "password-ok"}}).Want(200).JSON(&it)
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return it.ID
}

// pageURLs follows a cursor list's next links and returns every page's URL.
func pageURLs(t testing.TB, env *testsupport.Env, key, first string) []string {
	t.Helper()
	var urls []string
	for path := first; ; {
		urls = append(urls, env.URL+path)
		var p struct {
			Next *string `json:"next"`
		}
		env.Do(t, "GET", path, key, nil).Want(200).JSON(&p)
		if p.Next == nil {
			return urls
		}
		path = first[:strings.Index(first, "?")] + *p.Next
	}
}
