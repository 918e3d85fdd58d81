package rest_test

import (
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"ponte/testsupport"
)

// metricValue is the value of the first sample of a family with these label pairs, or -1.
func metricValue(text, family string, labels ...string) float64 {
	for _, line := range strings.Split(text, "\n") {
		name, rest := line, ""
		if i := strings.IndexAny(line, "{ "); i >= 0 {
			name, rest = line[:i], line[i:]
		}
		if name != family {
			continue
		}
		match := true
		for i := 0; i+1 < len(labels); i += 2 {
			match = match && strings.Contains(rest, labels[i]+`="`+labels[i+1]+`"`)
		}
		if match {
			v, _ := strconv.ParseFloat(line[strings.LastIndex(line, " ")+1:], 64)
			return v
		}
	}
	return -1
}

// /metrics shows what the service did, in Prometheus' text format: requests by route
// pattern (never an id), executions, deliveries, payment moves and job runs; a scraper on
// another machine needs the token.
func TestMetrics(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route, func(s *testsupport.Setup) { s.REST.MetricsToken = "scrape-secret" })
	key := env.NewClient(t, "metrics").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/created", "url": rc.URL + "/m"}).Want(200)
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	rc.Await(t, "item/created", 20*time.Second, func(d []testsupport.Delivery) bool { return len(d) > 0 })
	env.Recipient(t, key)
	req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200)
	env.Do(t, "GET", "/items/"+it.ID.String(), key, nil).Want(200)
	brewed := env.Do(t, "BREW", "/items/"+it.ID.String(), key, nil).Status

	var text string
	testsupport.Eventually(t, "the delivery's count", 10*time.Second, func() bool {
		r := env.Do(t, "GET", "/metrics", "", nil).Want(200)
		text = string(r.Body)
		return metricValue(text, "ponte_webhook_delivery_attempts_total", "outcome", "DELIVERED") >= 1 &&
			metricValue(text, "ponte_job_run_duration_seconds_count", "queue", "webhooks") >= 1
	})
	for _, c := range []struct {
		family string
		labels []string
	}{
		{"ponte_http_requests_total", []string{"route", "/items/{id}", "method", "GET", "status", "200"}},
		{"ponte_http_request_duration_seconds_count", []string{"route", "/payments/intents", "method", "POST"}},
		{"ponte_item_executions_total", []string{"status", "SUCCESS"}},
		{"ponte_item_execution_duration_seconds_count", []string{"status", "SUCCESS"}},
		{"ponte_payment_status_changes_total", []string{"resource", "request", "status", "IN_PROGRESS"}},
		{"ponte_payment_status_changes_total", []string{"resource", "intent", "status", "CONSENT_AWAITING_AUTHORIZATION"}},
		{"ponte_jobs_total", []string{"kind", "item_execution", "outcome", "completed"}},
		{"ponte_job_run_duration_seconds_count", []string{"queue", "webhooks"}},
		{"go_goroutines", nil},
	} {
		if v := metricValue(text, c.family, c.labels...); v < 1 {
			t.Errorf("%s%v = %v, want at least 1", c.family, c.labels, v)
		}
	}
	if regexp.MustCompile(`route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}`).MatchString(text) {
		t.Fatal("a route label holds an id")
	}
	// A method a client made up is counted, as OTHER: its name would be a series per name.
	if metricValue(text, "ponte_http_requests_total", "route", "unmatched", "method", "OTHER", "status", strconv.Itoa(brewed)) < 1 ||
		strings.Contains(text, `method="BREW"`) {
		t.Errorf("a BREW request (%d) is not counted as OTHER", brewed)
	}
	// From another machine: refused without the token, served with it.
	for _, c := range []struct {
		auth   string
		status int
	}{{"", 403}, {"Bearer wrong", 403}, {"Bearer scrape-secret", 200}} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = "203.0.113.7:41000"
		if c.auth != "" {
			r.Header.Set("Authorization", c.auth)
		}
		w := httptest.NewRecorder()
		env.Server.Config.Handler.ServeHTTP(w, r)
		if w.Code != c.status || c.status == 403 && !strings.Contains(w.Body.String(), "METRICS_FORBIDDEN") {
			t.Fatalf("remote scrape with %q: %d %s", c.auth, w.Code, w.Body.String())
		}
	}
}
