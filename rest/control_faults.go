package rest

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// Fault injection (docs/sandbox-control.md, "Control: fault injection"): the routes that set an
// application's rules, and the layer that applies them to its requests.

// Faults draws the faults an application's own rules put on its requests (faults.Engine
// is one). It comes through Config: it is HTTP infrastructure to rest, and the rules
// themselves are set through the resolvers like any other resource.
type Faults interface {
	// Active reports whether client has rules, from memory.
	Active(client uuid.UUID) bool
	// Draw is what client's rules do to one request on route ("GET /accounts/{id}").
	Draw(client uuid.UUID, route string) model.InjectedFault
	// KnowRoutes gives the route table, against which rules' routes are checked.
	KnowRoutes(routes []string)
}

// faultControl is the fault control's own path, which no fault reaches: the rules must stay
// reachable to be taken back.
const faultControl = "/sandbox/faults"

// faultsBody is the body of PUT /sandbox/faults and the answer of the three routes.
type faultsBody struct {
	Faults []*model.SandboxFault `json:"faults"`
}

// getFaults is GET /sandbox/faults.
func (s *Server) getFaults() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		return func(ctx context.Context) (any, error) { return faultsAnswer(s.query.SandboxFaults(ctx)) }
	})
}

// putFaults is PUT /sandbox/faults: the body's list replaces the application's rules.
func (s *Server) putFaults() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		var b struct {
			Faults *[]*model.SandboxFault `json:"faults"`
		}
		in.body(&b)
		if in.failure() == nil && b.Faults == nil {
			in.refuse(model.Fail(model.CodeInvalidParameter, `The body must be {"faults": [...]}, the list of rules; an empty list (or DELETE /sandbox/faults) removes them.`))
		}
		return func(ctx context.Context) (any, error) { return faultsAnswer(s.mut.SetSandboxFaults(ctx, *b.Faults)) }
	})
}

// deleteFaults is DELETE /sandbox/faults: the rules become none.
func (s *Server) deleteFaults() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		return func(ctx context.Context) (any, error) {
			return faultsAnswer(s.mut.SetSandboxFaults(ctx, []*model.SandboxFault{}))
		}
	})
}

func faultsAnswer(list []*model.SandboxFault, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []*model.SandboxFault{}
	}
	return faultsBody{Faults: list}, nil
}

// injectFaults applies the caller's fault rules to its request. Only a valid API key's
// requests are drawn: the rules are its application's resilience test, which neither its
// Connect Tokens' users nor any other application should meet. It runs after the edge's
// checks (refused input is answered as ever) and before the Idempotency-Key is claimed
// (an injected failure, like a real 5xx or 429, leaves the key free for the retry).
func (s *Server) injectFaults(f Faults) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if f == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cred := scopeOf(r).cred
			p := cred.Principal
			if cred.Err != nil || p == nil || p.Kind != auth.KindAPIKey || !f.Active(p.ClientID) {
				next.ServeHTTP(w, r)
				return
			}
			route := routeOf(r)
			if route == "" || strings.HasSuffix(route, " "+faultControl) {
				next.ServeHTTP(w, r)
				return
			}
			fault := f.Draw(p.ClientID, route)
			var kinds []string
			if fault.Delay > 0 {
				kinds = append(kinds, string(model.FaultLatency))
			}
			switch fault.Status {
			case 0:
			case http.StatusTooManyRequests:
				kinds = append(kinds, string(model.FaultRateLimit))
			default:
				kinds = append(kinds, string(model.FaultServerError))
			}
			if len(kinds) == 0 {
				next.ServeHTTP(w, r)
				return
			}
			// Says which answers a test provoked, so a real failure is never taken for one.
			w.Header().Set("Ponte-Injected-Fault", strings.Join(kinds, ", "))
			if fault.Delay > 0 {
				t := time.NewTimer(fault.Delay)
				select {
				case <-t.C:
				case <-r.Context().Done():
					t.Stop()
					return // the client left; there is no one to answer
				}
			}
			switch fault.Status {
			case 0:
				next.ServeHTTP(w, r)
			case http.StatusTooManyRequests:
				s.injectedRateLimit(w, route)
			default:
				s.injectedServerError(w, r, fault.Status, route)
			}
		})
	}
}

// routeOf is the request's route as rules name it, "GET /accounts/{id}": the pattern the
// router will serve it with, found ahead of routing (this layer runs before it). Empty
// when no route matches.
func routeOf(r *http.Request) string {
	rc := routeContexts.Get().(*chi.Context)
	defer routeContexts.Put(rc)
	rc.Reset()
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	pattern := scopeOf(r).route.Routes.Find(rc, r.Method, path)
	if pattern == "" {
		return ""
	}
	return r.Method + " " + pattern
}

// limitGroups are the routes with a limit of section 8 (server.go's rateLimit lines;
// TestFaultLimitGroups keeps the two equal), whose limit an injected 429 announces.
var limitGroups = map[string]string{
	"POST /auth":                         "auth",
	"PATCH /items/{id}":                  "item-update",
	"GET /transactions/{id}":             "transactions",
	"GET /transactions":                  "transactions",
	"GET /investments":                   "investments",
	"GET /investments/{id}":              "investments",
	"GET /investments/{id}/transactions": "investment-transactions",
}

// injectedLimit is the limit an injected 429 announces on a route without one of its own:
// the limit of most routes that have one.
const injectedLimit = 360

// injectedRateLimit answers as rateLimit does when a limit is reached: 429 with only code
// and message, Retry-After 60, and the RateLimit headers of the current minute.
func (s *Server) injectedRateLimit(w http.ResponseWriter, route string) {
	limit := s.limit.Limit(limitGroups[route])
	if limit <= 0 {
		limit = injectedLimit
	}
	now := time.Now()
	reset := max(1, int(now.Truncate(time.Minute).Add(time.Minute).Sub(now).Seconds()+0.999))
	h := w.Header()
	h["Ratelimit-Limit"] = []string{strconv.Itoa(limit)}
	h["Ratelimit-Reset"] = secondsValue(reset)
	h.Set("Retry-After", "60")
	s.writeJSON(w, http.StatusTooManyRequests, model.ErrorBody{Code: http.StatusTooManyRequests,
		Message: fmt.Sprintf("Too many requests: this endpoint allows %d per minute. Retry after the number of seconds in the Retry-After header.", limit)})
}

// injectedServerError answers as the service does when it fails (500 INTERNAL_ERROR) or
// loses its database (503 DATABASE_UNAVAILABLE, whose Retry-After answerWriter adds), with
// the request id to quote. Written here rather than through writeError, which logs every
// 500 as a failure: a test's faults are not the service's, and at probability 1 they would
// fill the log.
func (s *Server) injectedServerError(w http.ResponseWriter, r *http.Request, status int, route string) {
	code, message := model.CodeInternal, "The service failed to process the request"
	if status == http.StatusServiceUnavailable {
		code, message = model.CodeDatabaseUnavailable, "The database is not reachable at the moment"
	}
	id := model.RequestID(r.Context())
	s.writeJSON(w, code.Status(), model.ErrorBody{Code: code.Status(), CodeDescription: code.String(),
		Message: fmt.Sprintf("%s (a fault injected by this application's sandbox rule for %s). Retry later. Request id: %s.", message, route, id),
		Data:    map[string]string{"requestId": id}})
}

// knowRoutes hands// knowRoutes hands the route table to the fault rules' check, once every route is mounted.
func knowRoutes(f Faults, r chi.Routes) {
	if f == nil {
		return
	}
	var routes []string
	_ = chi.Walk(r, func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+pattern)
		return nil
	})
	f.KnowRoutes(routes)
}
