package rest

import (
	"net/http"
	"strings"

	"ponte/model"
)

// retryAfterUnavailable is the Retry-After (seconds) of every 503: the database monitor
// probes four times a second and a restarted private cluster answers within seconds.
const retryAfterUnavailable = "2"

// databaseGate answers 503 DATABASE_UNAVAILABLE at once while the database monitor knows
// the database is away, instead of letting each request wait out its own time-outs. Every
// 503 gets a Retry-After header (answerWriter). The health probes and GraphiQL's page need
// no database and pass.
func (s *Server) databaseGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if needsDatabase(r.URL.Path) && !s.db.Available() {
			// /graphql too: a refusal before execution is an HTTP status with the
			// documented body there, as for a body too large.
			s.writeError(w, r, model.Fail(model.CodeDatabaseUnavailable, "%s", model.MessageDatabaseUnavailable))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func needsDatabase(path string) bool {
	return path != "/healthz" && path != "/readyz" && path != "/graphiql" && !strings.HasPrefix(path, "/graphiql/")
}
