package graphiql_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ponte/graph/graphiql"
)

// fetch sends one request without the transport's own gzip handling, which would otherwise
// add Accept-Encoding and undo the compression this package is tested on.
func fetch(t *testing.T, srv *httptest.Server, method, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func newServer(t *testing.T, mount, endpoint string) *httptest.Server {
	srv := httptest.NewServer(graphiql.Handler(mount, endpoint))
	t.Cleanup(srv.Close)
	return srv
}

func TestPage(t *testing.T) {
	srv := newServer(t, "/graphiql", "/graphql")
	tests := []struct {
		method, path string
		wantBody     bool
	}{
		{"GET", "/graphiql", true},
		{"GET", "/graphiql/", true},
		{"HEAD", "/graphiql", false},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp, body := fetch(t, srv, tt.method, tt.path, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			for k, v := range map[string]string{
				"Content-Type":  "text/html; charset=utf-8",
				"Cache-Control": "no-cache",
			} {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			csp := resp.Header.Get("Content-Security-Policy")
			for _, d := range []string{"script-src 'self';", "style-src 'self' 'unsafe-inline';", "img-src 'self' data:;",
				"connect-src 'self';", "font-src 'self' data:;", "worker-src 'self' blob:;"} {
				if !strings.Contains(csp, d) {
					t.Errorf("CSP %q lacks %q", csp, d)
				}
			}
			if !tt.wantBody {
				if len(body) != 0 {
					t.Fatalf("HEAD returned %d bytes", len(body))
				}
				return
			}
			page := string(body)
			for _, want := range []string{
				`data-endpoint="/graphql"`,
				`href="/graphiql/assets/graphiql.min.css?v=`,
				`src="/graphiql/assets/react.production.min.js?v=`,
				`src="/graphiql/assets/react-dom.production.min.js?v=`,
				`src="/graphiql/assets/graphiql.min.js?v=`,
				`src="/graphiql/assets/bootstrap.js?v=`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %s", want)
				}
			}
			// The CSP forbids inline scripts, so the page must not have any.
			if strings.Count(page, "<script") != strings.Count(page, "<script src=") {
				t.Error("page has an inline script")
			}
			if strings.Contains(page, "://") {
				t.Error("page refers to another origin")
			}
		})
	}
}

func TestPageEscapesEndpoint(t *testing.T) {
	srv := newServer(t, "/x/", `/q"><script>alert(1)</script>`)
	resp, body := fetch(t, srv, "GET", "/x", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if strings.Contains(string(body), "<script>alert") || !strings.Contains(string(body), `src="/x/assets/bootstrap.js?v=`) {
		t.Fatalf("endpoint not escaped or mount not normalised:\n%s", body)
	}
}

func TestAssets(t *testing.T) {
	srv := newServer(t, "/graphiql", "/graphql")
	tests := []struct {
		name, contentType string
		minSize           int
		gzip              bool
	}{
		{"graphiql.min.js", "text/javascript; charset=utf-8", 1 << 20, true},
		{"graphiql.min.css", "text/css; charset=utf-8", 100_000, true},
		{"react.production.min.js", "text/javascript; charset=utf-8", 5_000, true},
		{"react-dom.production.min.js", "text/javascript; charset=utf-8", 100_000, true},
		{"bootstrap.js", "text/javascript; charset=utf-8", 500, true},
		{"LICENSE.graphiql", "text/plain; charset=utf-8", 500, false},
		{"LICENSE.react", "text/plain; charset=utf-8", 500, false},
		{"LICENSE.react-dom", "text/plain; charset=utf-8", 500, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := "/graphiql/assets/" + tt.name
			resp, plain := fetch(t, srv, "GET", url, nil)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.contentType || len(plain) < tt.minSize {
				t.Fatalf("status %d, %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(plain))
			}
			if got := resp.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("Cache-Control %q", got)
			}
			if resp.Header.Get("Content-Encoding") != "" {
				t.Fatal("compressed without being asked to")
			}
			etag := resp.Header.Get("ETag")
			if len(etag) < 10 {
				t.Fatalf("ETag %q", etag)
			}

			t.Run("304", func(t *testing.T) {
				resp, body := fetch(t, srv, "GET", url, map[string]string{"If-None-Match": `"other", ` + etag})
				if resp.StatusCode != 304 || len(body) != 0 || resp.Header.Get("ETag") != etag {
					t.Fatalf("status %d, %d bytes, ETag %q", resp.StatusCode, len(body), resp.Header.Get("ETag"))
				}
				resp, _ = fetch(t, srv, "GET", url, map[string]string{"If-None-Match": `"other"`})
				if resp.StatusCode != 200 {
					t.Fatalf("stale ETag answered %d", resp.StatusCode)
				}
			})

			t.Run("HEAD", func(t *testing.T) {
				resp, body := fetch(t, srv, "HEAD", url, nil)
				if resp.StatusCode != 200 || len(body) != 0 || resp.ContentLength != int64(len(plain)) {
					t.Fatalf("status %d, %d bytes, Content-Length %d", resp.StatusCode, len(body), resp.ContentLength)
				}
			})

			t.Run("gzip", func(t *testing.T) {
				resp, zipped := fetch(t, srv, "GET", url, map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
				if !tt.gzip {
					if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(zipped, plain) {
						t.Fatalf("no gzip copy expected, got %q", resp.Header.Get("Content-Encoding"))
					}
					return
				}
				if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Vary") != "Accept-Encoding" {
					t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
				}
				if resp.Header.Get("Content-Type") != tt.contentType || len(zipped) >= len(plain) {
					t.Fatalf("%q, %d compressed bytes for %d", resp.Header.Get("Content-Type"), len(zipped), len(plain))
				}
				zr, err := gzip.NewReader(bytes.NewReader(zipped))
				if err != nil {
					t.Fatal(err)
				}
				unzipped, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(unzipped, plain) {
					t.Fatal("the gzip copy is stale: run go generate ./graph/graphiql")
				}
				gzETag := resp.Header.Get("ETag")
				if gzETag == "" || gzETag == etag {
					t.Fatalf("gzip ETag %q must differ from the plain one %q", gzETag, etag)
				}
				resp, body := fetch(t, srv, "GET", url, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": gzETag})
				if resp.StatusCode != 304 || len(body) != 0 {
					t.Fatalf("gzip If-None-Match: status %d", resp.StatusCode)
				}
			})

			t.Run("gzip refused", func(t *testing.T) {
				for _, ae := range []string{"gzip;q=0", "br", "identity", "*;q=0"} {
					resp, body := fetch(t, srv, "GET", url, map[string]string{"Accept-Encoding": ae})
					if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, plain) {
						t.Fatalf("Accept-Encoding %q got %q", ae, resp.Header.Get("Content-Encoding"))
					}
				}
			})
		})
	}
}

func TestErrors(t *testing.T) {
	srv := newServer(t, "/graphiql", "/graphql")
	tests := []struct {
		method, path string
		status       int
		message      string
		allow        string
	}{
		{"GET", "/graphiql/assets/nope.js", 404, "asset not found", ""},
		{"GET", "/graphiql/assets/graphiql.min.js.gz", 404, "asset not found", ""},
		{"GET", "/graphiql/assets/", 404, "asset not found", ""},
		{"GET", "/graphiql/assets/%2e%2e/graphiql.go", 404, "asset not found", ""},
		{"GET", "/graphiql/other", 404, "not found", ""},
		{"POST", "/graphiql", 405, "method not allowed", "GET, HEAD"},
		{"PUT", "/graphiql/", 405, "method not allowed", "GET, HEAD"},
		{"DELETE", "/graphiql/assets/bootstrap.js", 405, "method not allowed", "GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			resp, body := fetch(t, srv, tt.method, tt.path, nil)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
				t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow %q, want %q", got, tt.allow)
			}
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Code != tt.status || e.Message != tt.message {
				t.Fatalf("body %s (%v)", body, err)
			}
		})
	}
}
