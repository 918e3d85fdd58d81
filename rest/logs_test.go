package rest_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// logLines collects a service's JSON log lines.
type logLines struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// find returns the lines with message msg whose attributes include every pair of want.
func (l *logLines) find(t *testing.T, msg string, want map[string]any) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if m["msg"] != msg {
			continue
		}
		match := true
		for k, v := range want {
			match = match && m[k] == v
		}
		if match {
			out = append(out, m)
		}
	}
	return out
}

// The service's own lines at info level: one when an item execution ends, one per payment
// status change, one per webhook delivery attempt, each with the ids to look it up and no
// secret; a line logged while serving a request carries that request's id.
func TestServiceLogLines(t *testing.T) {
	t.Parallel()
	var logs logLines
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route, func(s *testsupport.Setup) {
		s.Resolver.Log = slog.New(model.LogRequestIDs(slog.NewJSONHandler(&logs, nil))) // as the service builds it
	})
	key := env.NewClient(t, "log lines").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/created", "url": rc.URL + "/hooks?token=receiver-secret"}).Want(200)

	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	testsupport.Eventually(t, "the execution's line", 10*time.Second, func() bool {
		return len(logs.find(t, "item execution ended", map[string]any{"itemId": it.ID.String(), "status": "SUCCESS", "connectorId": 0.0})) == 1
	})
	rc.Await(t, "item/created", 20*time.Second, func(d []testsupport.Delivery) bool { return len(d) > 0 })
	testsupport.Eventually(t, "the delivery's line", 10*time.Second, func() bool {
		return len(logs.find(t, "webhook delivered", map[string]any{"event": "item/created", "status": "DELIVERED", "httpStatus": 200.0})) > 0
	})

	// A payment attempt started by a request: its moves are logged with that request's id.
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")
	r := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200)
	lines := logs.find(t, "payment request status", map[string]any{"paymentRequestId": reqID, "status": payments.InProgress})
	if len(lines) != 1 || lines[0]["requestId"] != r.Header.Get("X-Request-Id") || lines[0]["level"] != "INFO" {
		t.Fatalf("the request's move to IN_PROGRESS: %v (request id %s)", lines, r.Header.Get("X-Request-Id"))
	}
	if len(logs.find(t, "payment intent status", map[string]any{"paymentRequestId": reqID, "status": payments.Enqueued})) != 1 {
		t.Fatalf("no line for the intent being enqueued:\n%s", logs.b.String())
	}

	logs.mu.Lock()
	all := logs.b.String()
	logs.mu.Unlock()
	for _, secret := range []string{"password-ok", "receiver-secret", key} {
		if strings.Contains(all, secret) {
			t.Fatalf("the log shows %q", secret)
		}
	}
}
