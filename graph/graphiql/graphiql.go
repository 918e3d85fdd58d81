// Package graphiql serves the GraphiQL IDE with every asset embedded in the binary: the
// service runs where no CDN is reachable, and the IDE must work there too.
//
// The assets come verbatim from npm (graphiql@3.8.3, react@18.3.1, react-dom@18.3.1); each
// .js and .css sits next to a gzip -9 copy so that no request pays for compressing
// megabytes of JavaScript. After changing an asset, regenerate the copies with go generate.
package graphiql

//go:generate sh -c "cd assets && rm -f *.gz && gzip -9 -k -n *.js *.css"

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"ponte/model"
)

//go:embed assets
var files embed.FS

type asset struct {
	contentType string
	plain, gz   []byte
	// The gzip body is a different representation of the same resource, so it needs its
	// own strong ETag: a cache must not answer a 304 for one with the other.
	etag, gzETag string
}

// loadAssets indexes the embedded files on first use rather than at init, so binaries and
// tests that never open the IDE do not hash megabytes at start-up.
var loadAssets = sync.OnceValue(func() map[string]*asset {
	entries, err := fs.ReadDir(files, "assets")
	if err != nil {
		panic(err)
	}
	m := map[string]*asset{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".gz") {
			continue
		}
		plain, err := files.ReadFile("assets/" + name)
		if err != nil {
			panic(err)
		}
		sum := sha256.Sum256(plain)
		tag := hex.EncodeToString(sum[:16])
		a := &asset{contentType: "text/plain; charset=utf-8", plain: plain, etag: `"` + tag + `"`}
		switch path.Ext(name) {
		case ".js", ".css":
			if path.Ext(name) == ".js" {
				a.contentType = "text/javascript; charset=utf-8"
			} else {
				a.contentType = "text/css; charset=utf-8"
			}
			// A missing copy is a packaging mistake (go generate not run); failing loudly
			// beats silently serving megabytes uncompressed.
			if a.gz, err = files.ReadFile("assets/" + name + ".gz"); err != nil {
				panic("graphiql: " + name + ".gz missing; run go generate ./graph/graphiql")
			}
			a.gzETag = `"` + tag + `-gz"`
		}
		m[name] = a
	}
	return m
})

var page = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ponte GraphiQL</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{.Asset "graphiql.min.css"}}">
<style>html, body, #graphiql { height: 100%; margin: 0; }
/* On a phone the editors and the response stack instead of sharing the width. */
@media (max-width: 700px) {
  .graphiql-container .graphiql-session { flex-direction: column; }
  .graphiql-container .graphiql-session > .graphiql-horizontal-drag-bar { display: none; }
  .graphiql-container .graphiql-session > * { min-height: 40%; }
}
/* Contrast (WCAG AA, 4.5:1 on the editors' grey): the light theme's cyan and blue names, its
   green numbers and its faded logo are too pale. Same hues, darker; the dark theme's own rules
   still win. */
.graphiql-container, .CodeMirror-info, .CodeMirror-lint-tooltip, .graphiql-dialog, .graphiql-tooltip,
[data-radix-popper-content-wrapper] { --color-tertiary: 188, 100%, 27%; --color-info: 208, 100%, 40%;
  --color-success: 158, 60%, 26%; }
.graphiql-container .graphiql-logo .graphiql-logo-link { color: hsl(var(--color-neutral)); }</style>
</head>
<body>
<div id="graphiql" data-endpoint="{{.Endpoint}}">Loading GraphiQL…</div>
<noscript>GraphiQL needs JavaScript.</noscript>
<script src="{{.Asset "react.production.min.js"}}"></script>
<script src="{{.Asset "react-dom.production.min.js"}}"></script>
<script src="{{.Asset "graphiql.min.js"}}"></script>
<script src="{{.Asset "bootstrap.js"}}"></script>
</body>
</html>
`))

type pageData struct {
	Endpoint string
	prefix   string
	assets   map[string]*asset
}

// Asset returns the URL of an embedded asset. The assets are cached as immutable for a year
// under a URL that does not change between releases, so the page, which is never cached,
// adds the content hash as a query string to make browsers fetch a new build.
func (d pageData) Asset(name string) (string, error) {
	a, ok := d.assets[name]
	if !ok {
		return "", fs.ErrNotExist
	}
	return d.prefix + name + "?v=" + strings.Trim(a.etag, `"`), nil
}

// csp lets the page run only this service's own scripts. GraphiQL injects <style> elements
// and uses data: fonts and images and blob: workers, so those are allowed where needed and
// nowhere else; connect-src 'self' assumes the endpoint is on this origin.
const csp = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the IDE page at mount (and mount+"/") and its embedded assets at
// mount+"/assets/<name>"; the page sends its queries to endpoint. Register it for both mount
// and everything under it.
func Handler(mount, endpoint string) http.Handler {
	mount = "/" + strings.Trim(mount, "/")
	if mount == "/" {
		mount = ""
	}
	prefix := mount + "/assets/"
	assets := loadAssets()

	var buf bytes.Buffer
	if err := page.Execute(&buf, pageData{Endpoint: endpoint, prefix: prefix, assets: assets}); err != nil {
		panic(err)
	}
	html := buf.Bytes()
	sum := sha256.Sum256(html)
	htmlETag := `"` + hex.EncodeToString(sum[:16]) + `"`

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			jsonError(w, model.Fail(model.CodeMethodNotAllowed, "method not allowed"))
			return
		}
		h.Set("X-Content-Type-Options", "nosniff")

		p := r.URL.Path
		if p == mount || p == mount+"/" {
			h.Set("Content-Type", "text/html; charset=utf-8")
			// no-cache rather than no-store: revalidating by ETag is cheap, and it is what
			// lets a new release's asset hashes reach the browser.
			h.Set("Cache-Control", "no-cache")
			h.Set("Content-Security-Policy", csp)
			// For browsers older than frame-ancestors.
			h.Set("X-Frame-Options", "DENY")
			h.Set("ETag", htmlETag)
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(html))
			return
		}

		name, ok := strings.CutPrefix(p, prefix)
		if !ok {
			jsonError(w, model.Fail(model.CodeNotFound, "not found"))
			return
		}
		a := assets[name]
		if a == nil {
			jsonError(w, model.Fail(model.CodeNotFound, "asset not found"))
			return
		}
		body, etag := a.plain, a.etag
		if a.gz != nil {
			// Set even when answering uncompressed: shared caches must key on the header.
			h.Set("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Values("Accept-Encoding")) {
				h.Set("Content-Encoding", "gzip")
				body, etag = a.gz, a.gzETag
			}
		}
		h.Set("Content-Type", a.contentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", etag)
		// ServeContent does the conditional (If-None-Match → 304), HEAD and Range handling.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: named with a non-zero
// q, or covered by a non-zero "*" when not named at all.
func acceptsGzip(values []string) bool {
	gzip, star := -1.0, -1.0
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			q := 1.0
			for _, param := range strings.Split(params, ";") {
				if k, val, ok := strings.Cut(strings.TrimSpace(param), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
						q = f
					}
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gzip = max(gzip, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gzip >= 0 {
		return gzip > 0
	}
	return star > 0
}

// jsonError answers with the same error body as the rest of the API, so clients need one
// error decoder.
func jsonError(w http.ResponseWriter, e *model.Error) {
	body, _ := json.Marshal(e.Body())
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(e.Status())
	_, _ = w.Write(append(body, '\n'))
}
