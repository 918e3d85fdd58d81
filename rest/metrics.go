package rest

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"ponte/metrics"
	"ponte/model"
)

// metricsEndpoint serves the process's metrics to a scraper on this machine, or to one
// elsewhere that sends PONTE_METRICS_TOKEN as a bearer token: the counts name routes,
// queues and outcomes, which the internet need not read.
func (s *Server) metricsEndpoint() http.HandlerFunc {
	h := metrics.Handler()
	token := s.metricsToken
	return func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		ip := net.ParseIP(host)
		bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if (ip == nil || !ip.IsLoopback()) && (token == "" || !ok || subtle.ConstantTimeCompare([]byte(bearer), []byte(token)) != 1) {
			s.writeError(w, r, model.Fail(model.CodeMetricsForbidden,
				"/metrics answers this machine, or a scraper sending the bearer token set in PONTE_METRICS_TOKEN."))
			return
		}
		h.ServeHTTP(w, r)
	}
}
