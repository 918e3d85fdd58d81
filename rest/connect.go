package rest

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"slices"

	"github.com/go-chi/chi/v5"

	"ponte/model"
)

// The Connect page (/connect): where an application sends its end user, with a Connect
// Token, to link an institution. It is a static page whose script drives the API the
// token reaches (connectors, items, MFA), so it holds no rule of its own; its files are
// embedded in the binary and served from /connect/assets/, and its policy admits scripts,
// styles, images and requests from this origin only. The token travels in the query string
// (?connect_token=) or, kept out of logs, in the fragment (#connect_token=).

// The page is also the Connect widget SDK's child component (widget.js): it loads zoid
// 9.0.63, the version pluggy-connect-sdk 2.14.2 pins, as published on npm (package zoid,
// dist/zoid.frame.min.js, byte for byte, served as zoid-frame.js), whose Apache-2.0
// license is zoid-license.txt beside it. The SDK's parent checks the child's zoid version
// is its own, so it moves only with the SDK's.
//
//go:embed connectpage
var connectFiles embed.FS

// connectCSP: nothing from elsewhere, no inline script or style; data: images for the
// institutions' captcha images (image parameters carry Base64 data). Its frame-ancestors
// is replaced by connectFramers' origins when there are any.
const connectCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// connectAsset names the files under /connect/assets/: letters, digits, dots and dashes.
var connectAsset = regexp.MustCompile(`^[a-z0-9-]+\.(js|css|svg)$`)

// connectTypes are the assets' media types, fixed here rather than read from the
// machine's mime.types, which differ between systems.
var connectTypes = map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}

// connectPage is GET /connect. The query string (connect_token, lang) is read by the page's
// script; the server only checks it is well formed (the edge refuses NUL bytes and the like).
func (s *Server) connectPage(w http.ResponseWriter, r *http.Request) {
	body, err := connectFiles.ReadFile("connectpage/index.html")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", connectCSP)
	// The page's URL may hold the token: never send it on as a Referer.
	h.Set("Referrer-Policy", "no-referrer")
	allowFraming(w, s.connectFramers(r))
	_, _ = w.Write(body)
}

// connectFramers are the origins that may frame the Connect page, as the Connect widget
// SDK does: the operator's PONTE_BROWSER_ORIGINS always, since the SDK hands the page its
// token after loading it (through the frame, out of the server's sight), plus the token's
// own targetOrigin when the token comes in the query string, the one place the server
// sees it. The page holds no credential of the parent's and sends none to it; a framing
// page only gets the messages the page would post to that same origin anyway.
func (s *Server) connectFramers(r *http.Request) []string {
	origins := s.browserOriginList
	token := r.URL.Query().Get("connect_token")
	if token == "" {
		return origins
	}
	p, err := s.auth.Verify(r.Context(), token)
	if err != nil || !p.IsConnectToken() || p.Options.TargetOrigin == nil {
		return origins
	}
	o, ok := model.Origin(*p.Options.TargetOrigin)
	if !ok || slices.Contains(origins, o) {
		return origins
	}
	return append(slices.Clip(origins), o)
}

// connectAssetFile is GET /connect/assets/{file}: the page's script, style and the
// institutions' logos.
func (s *Server) connectAssetFile(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "file")
	var body []byte
	var err error = fs.ErrNotExist
	if connectAsset.MatchString(name) {
		body, err = connectFiles.ReadFile(path.Join("connectpage", name))
	}
	if err != nil {
		s.writeError(w, r, model.Fail(model.CodeNotFound, "No Connect page asset %.60q.", name))
		return
	}
	h := w.Header()
	h.Set("Content-Type", connectTypes[path.Ext(name)])
	h.Set("Content-Security-Policy", "default-src 'none'")
	_, _ = w.Write(body)
}

// connectSession is GET /connect_token: the Connect Token's own item and options.
func (s *Server) connectSession() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		return func(ctx context.Context) (any, error) { return s.query.ConnectSession(ctx) }
	})
}
