// Package graphiql serves the GraphiQL IDE with every asset embedded in the binary: the
// service runs where no CDN is reachable, and the page must work there too.
package graphiql

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

//go:embed assets
var files embed.FS

type asset struct {
	contentType string
	plain, gz   []byte
	etag        string
}

var (
	loadOnce sync.Once
	assets   map[string]*asset
)

// load reads and compresses the assets once; compressing 4 MB per request would cost more
// than serving it.
func load() {
	assets = map[string]*asset{}
	entries, _ := fs.ReadDir(files, "assets")
	for _, e := range entries {
		name := e.Name()
		var ct string
		switch path.Ext(name) {
		case ".js":
			ct = "text/javascript; charset=utf-8"
		case ".css":
			ct = "text/css; charset=utf-8"
		default:
			ct = "text/plain; charset=utf-8"
		}
		b, _ := files.ReadFile("assets/" + name)
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		sum := sha256.Sum256(b)
		assets[name] = &asset{contentType: ct, plain: b, gz: buf.Bytes(), etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
	}
}

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ponte GraphiQL</title>
<link rel="stylesheet" href="{{.Assets}}/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql" data-endpoint="{{.Endpoint}}">Loading GraphiQL…</div>
<script src="{{.Assets}}/react.production.min.js"></script>
<script src="{{.Assets}}/react-dom.production.min.js"></script>
<script src="{{.Assets}}/graphiql.min.js"></script>
<script src="{{.Assets}}/bootstrap.js"></script>
</body>
</html>
`))

// csp allows only this service's own scripts. GraphiQL injects inline styles and uses data:
// fonts and blob: workers, so those are allowed for styles, fonts and workers alone.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the IDE page at mount and its assets under mount/assets/, talking to the
// GraphQL endpoint at endpoint.
func Handler(mount, endpoint string) http.Handler {
	mount = strings.TrimSuffix(mount, "/")
	var html bytes.Buffer
	if err := page.Execute(&html, map[string]string{"Assets": mount + "/assets", "Endpoint": endpoint}); err != nil {
		panic(err)
	}
	pageBytes := html.Bytes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			jsonError(w, http.StatusMethodNotAllowed, "method not allowed")
			return
		}
		p := r.URL.Path
		if p == mount || p == mount+"/" {
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Cache-Control", "no-cache")
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Content-Type-Options", "nosniff")
			_, _ = w.Write(pageBytes)
			return
		}
		name, ok := strings.CutPrefix(p, mount+"/assets/")
		loadOnce.Do(load)
		a := assets[name]
		if !ok || a == nil {
			jsonError(w, http.StatusNotFound, "asset not found")
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", a.etag)
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, a.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		body := a.plain
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body = a.gz
		}
		_, _ = w.Write(body)
	})
}

func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(params, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"code":` + strconv.Itoa(status) + `,"message":"` + msg + `"}` + "\n"))
}
