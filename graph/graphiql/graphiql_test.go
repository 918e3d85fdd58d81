package graphiql_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ponte/graph/graphiql"
)

func fetch(t *testing.T, srv *httptest.Server, method, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	// The default transport would negotiate and undo gzip itself; ask explicitly instead.
	tr := &http.Transport{DisableCompression: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestGraphiQL(t *testing.T) {
	srv := httptest.NewServer(graphiql.Handler("/graphiql", "/graphql"))
	defer srv.Close()

	t.Run("page", func(t *testing.T) {
		for _, p := range []string{"/graphiql", "/graphiql/"} {
			resp, body := fetch(t, srv, "GET", p, nil)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("%s: %d %s", p, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			for _, want := range []string{`data-endpoint="/graphql"`, "/graphiql/assets/graphiql.min.js", "/graphiql/assets/react.production.min.js",
				"/graphiql/assets/react-dom.production.min.js", "/graphiql/assets/graphiql.min.css", "/graphiql/assets/bootstrap.js"} {
				if !strings.Contains(string(body), want) {
					t.Errorf("page lacks %s", want)
				}
			}
			if strings.Contains(string(body), "http") && strings.Contains(string(body), "//unpkg") {
				t.Error("page refers to a CDN")
			}
			if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("CSP %q", resp.Header.Get("Content-Security-Policy"))
			}
		}
	})

	assets := []struct {
		name, contentType string
		minSize           int
	}{
		{"graphiql.min.js", "text/javascript; charset=utf-8", 1 << 20},
		{"graphiql.min.css", "text/css; charset=utf-8", 10000},
		{"react.production.min.js", "text/javascript; charset=utf-8", 5000},
		{"react-dom.production.min.js", "text/javascript; charset=utf-8", 50000},
		{"bootstrap.js", "text/javascript; charset=utf-8", 200},
	}
	for _, a := range assets {
		t.Run(a.name, func(t *testing.T) {
			resp, plain := fetch(t, srv, "GET", "/graphiql/assets/"+a.name, nil)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != a.contentType || len(plain) < a.minSize {
				t.Fatalf("%d %q %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(plain))
			}
			if resp.Header.Get("Content-Encoding") != "" {
				t.Fatal("compressed without being asked")
			}
			etag := resp.Header.Get("ETag")
			if etag == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
				t.Fatalf("caching headers: %v", resp.Header)
			}

			resp, zipped := fetch(t, srv, "GET", "/graphiql/assets/"+a.name, map[string]string{"Accept-Encoding": "br, gzip"})
			if resp.Header.Get("Content-Encoding") != "gzip" || len(zipped) >= len(plain) {
				t.Fatalf("gzip: %q, %d bytes", resp.Header.Get("Content-Encoding"), len(zipped))
			}
			zr, err := gzip.NewReader(bytes.NewReader(zipped))
			if err != nil {
				t.Fatal(err)
			}
			unzipped, _ := io.ReadAll(zr)
			if !bytes.Equal(unzipped, plain) {
				t.Fatal("gzip body differs from the plain one")
			}

			resp, body := fetch(t, srv, "GET", "/graphiql/assets/"+a.name, map[string]string{"If-None-Match": etag})
			if resp.StatusCode != 304 || len(body) != 0 {
				t.Fatalf("If-None-Match: %d, %d bytes", resp.StatusCode, len(body))
			}
		})
	}

	errs := []struct {
		method, path string
		status       int
	}{
		{"GET", "/graphiql/assets/nope.js", 404},
		{"GET", "/graphiql/assets/../graphiql.go", 404},
		{"POST", "/graphiql", 405},
		{"DELETE", "/graphiql/assets/bootstrap.js", 405},
	}
	for _, e := range errs {
		t.Run(e.method+" "+e.path, func(t *testing.T) {
			resp, body := fetch(t, srv, e.method, e.path, nil)
			var m map[string]any
			if resp.StatusCode != e.status || json.Unmarshal(body, &m) != nil || m["code"] != float64(e.status) || m["message"] == "" {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
		})
	}
}
