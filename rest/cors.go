package rest

import (
	"context"
	"net/http"
	"strings"

	"ponte/auth"
	"ponte/model"
)

// Cross-origin calls (CORS). The browser client calls the API from the application's own
// page with a Connect Token, so the browser asks first (a preflight) and then lets the page
// read an answer only when it names the page's origin. The origins a call is allowed from
// are the operator's (Config.BrowserOrigins, PONTE_BROWSER_ORIGINS) and the Connect Token's
// own options.targetOrigin, and nothing else: no wildcard, and an API key, a server's
// secret, never gets an answer a browser may read.
//
// A preflight carries no credential, so it cannot tell which token will follow. It is
// answered only for an origin some call could be allowed from: one of the operator's, or
// one that a live Connect Token names as its targetOrigin (the store records those when a
// token is issued, until it expires). Any other origin's preflight gets no CORS headers, so
// the browser never sends the call: a page on an origin nobody allowed cannot make the API
// act, not even with a credential it holds (an API key, or a token naming another origin).
// The actual call still decides, with its token, whether the page may read the answer: an
// allowed preflight only says that some token allows that origin, not that this one does.
// corsMethods are the methods the browser client uses (and the API serves).
const corsMethods = "GET, POST, PUT, PATCH, DELETE"

// corsHeaders are the request headers the browser client sends beyond the ones browsers
// always allow: the credential, the JSON body's type and its own user agent header.
const corsHeaders = "X-API-KEY, Content-Type, Pluggy-User-Agent, Idempotency-Key"

// corsMaxAge lets a browser reuse a preflight's answer for ten minutes.
const corsMaxAge = "600"

// preflight answers a CORS preflight (OPTIONS with Origin and
// Access-Control-Request-Method) from an allowed origin (preflightAllowed) with 204 and the
// methods and headers the API accepts. Any other OPTIONS goes on to the router, which
// refuses the method without CORS headers: the browser then refuses the call.
func (s *Server) preflight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		origin := wellFormedOrigin(r)
		if origin == "" || !s.preflightAllowed(r, origin) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Methods", corsMethods)
		h.Set("Access-Control-Allow-Headers", corsHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		w.WriteHeader(http.StatusNoContent)
	})
}

// preflightAllowed reports whether origin is the operator's or a live Connect Token's
// targetOrigin (auth's OriginLive, which remembers the store's answer a few seconds); when
// the store cannot answer, the origin is not allowed (the browser refuses the call; the
// page may retry).
func (s *Server) preflightAllowed(r *http.Request, origin string) bool {
	if s.browserOrigins[origin] {
		return true
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	live, err := s.auth.OriginLive(ctx, origin)
	if err != nil {
		s.log.WarnContext(ctx, "preflight: the allowed origins could not be read", "err", err)
		return false
	}
	return live
}

// allowOrigin lets the browser show the page an answer to a call made from an allowed
// origin. It runs ahead of the database gate, the Accept check and the credential's check,
// so that their refusals reach the page too: it decides from what the credential's
// signature vouches for, and confirmOrigin decides again once the credential is checked.
func (s *Server) allowOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Origin"]) > 0 {
			// The answer depends on the Origin whether or not it is allowed: a cache (none
			// should keep these, see Cache-Control) must not hand one origin's to another.
			h := w.Header()
			h.Add("Vary", "Origin")
			if origin := s.corsOrigin(r); origin != "" {
				h.Set("Access-Control-Allow-Origin", origin)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// confirmOrigin decides again with the checked credential (after authenticate): a token
// issued before its signature named its origin is known only by its stored options.
func (s *Server) confirmOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Origin"]) > 0 && scopeOf(r).cred.Principal != nil {
			if origin := s.corsOrigin(r); origin != "" {
				w.Header().Set("Access-Control-Allow-Origin", origin)
			} else {
				w.Header().Del("Access-Control-Allow-Origin")
			}
		}
		next.ServeHTTP(w, r)
	})
}

// corsOrigin is r's Origin when an answer to r may be read by a page of that origin, or "".
func (s *Server) corsOrigin(r *http.Request) string {
	origin := wellFormedOrigin(r)
	if origin == "" {
		return ""
	}
	if p := scopeOf(r).cred.Principal; p != nil {
		switch {
		case p.Kind == auth.KindAPIKey:
			return "" // a server's secret: a browser holding one must not be helped to use it
		case s.browserOrigins[origin]:
			return origin
		case p.IsConnectToken() && p.Options.TargetOrigin != nil && *p.Options.TargetOrigin == origin:
			return origin
		}
		return ""
	}
	// Not checked (yet, or it could not be) or refused: the signature alone tells an API
	// key, which never gets CORS, and a Connect Token's origin, which reads the refusal.
	kind, claimed, signed := s.auth.Claimed(strings.TrimSpace(r.Header.Get("X-Api-Key")))
	switch {
	case signed && kind == auth.KindAPIKey:
		return ""
	case s.browserOrigins[origin]:
		return origin // the operator's origins also read refusals of a missing or bad token
	case signed && kind == auth.KindConnectToken && claimed == origin:
		return origin
	}
	return ""
}

// wellFormedOrigin is r's one Origin header when it is an origin exactly as a browser spells
// it (model.Origin's form), or "": "null", a path or upper case never match an allowed one.
func wellFormedOrigin(r *http.Request) string {
	vs := r.Header["Origin"]
	if len(vs) != 1 {
		return ""
	}
	o, ok := model.Origin(vs[0])
	if !ok || o != vs[0] || strings.HasSuffix(o, "/") {
		return ""
	}
	return o
}

// originSet is the operator's origins as a set, each already in model.Origin's form.
func originSet(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, o := range list {
		if v, ok := model.Origin(o); ok {
			set[v] = true
		}
	}
	return set
}
