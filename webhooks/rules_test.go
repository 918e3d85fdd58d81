package webhooks

import (
	"errors"
	"strings"
	"testing"
	"time"

	"ponte/model"
)

func wantError(t *testing.T, what string, err error, code model.Code, says string) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, says) {
		t.Errorf("%s: got %v, want %s saying %q", what, err, code, says)
	}
}

// Every event name of section 6.1 may be subscribed to, and all; item/all and anything
// not spelled exactly as a name are INVALID_WEBHOOK_EVENT.
func TestCheckEvent(t *testing.T) {
	t.Parallel()
	section61 := []string{"item/created", "item/updated", "item/deleted", "item/error", "item/waiting_user_input",
		"item/waiting_user_action", "item/login_succeeded", "connector/status_updated", "transactions/created",
		"transactions/updated", "transactions/deleted", "payment_intent/created", "payment_intent/waiting_payer_authorization",
		"payment_intent/completed", "payment_intent/error", "payment_request/updated", "scheduled_payment/created",
		"scheduled_payment/completed", "scheduled_payment/error", "scheduled_payment/canceled", "scheduled_payment/all_created",
		"scheduled_payment/all_completed", "automatic_pix_payment/created", "automatic_pix_payment/completed",
		"automatic_pix_payment/error", "automatic_pix_payment/canceled", "smart_transfer_preauthorization/completed",
		"smart_transfer_preauthorization/error", "smart_transfer_payment/completed", "smart_transfer_payment/error", "all"}
	for _, ev := range section61 {
		if err := checkEvent(ev); err != nil {
			t.Errorf("%s refused: %v", ev, err)
		}
	}
	for _, c := range []struct{ event, says string }{
		{"item/all", "item/all is not supported"},
		{"", "not an event name"},
		{"ITEM/CREATED", "not an event name"},
		{"item/created ", "not an event name"},
		{"item/*", "not an event name"},
		{"transactions", "not an event name"},
	} {
		wantError(t, c.event, checkEvent(c.event), model.CodeInvalidWebhookEvent, c.says)
	}
}

// Custom headers: string values, names a server would read as one header, none of the
// headers every delivery sets itself, at most 20; names come back canonical.
func TestCheckHeaders(t *testing.T) {
	t.Parallel()
	many := map[string]any{}
	for i := range 21 {
		many["X-H"+strings.Repeat("a", i+1)] = "v"
	}
	cases := []struct {
		name string
		in   map[string]any
		want map[string]string // nil: refused
		says string
	}{
		{"none", map[string]any{}, map[string]string{}, ""},
		{"canonical names", map[string]any{"authorization": "Bearer x", "x-api-key": "k"}, map[string]string{"Authorization": "Bearer x", "X-Api-Key": "k"}, ""},
		{"empty value", map[string]any{"X-Empty": ""}, map[string]string{"X-Empty": ""}, ""},
		{"number value", map[string]any{"X-N": 1.0}, nil, "must be a string"},
		{"null value", map[string]any{"X-N": nil}, nil, "must be a string"},
		{"space in name", map[string]any{"X A": "v"}, nil, "not a valid HTTP header"},
		{"colon in name", map[string]any{"X:A": "v"}, nil, "not a valid HTTP header"},
		{"empty name", map[string]any{"": "v"}, nil, "not a valid HTTP header"},
		{"line break in value", map[string]any{"X-A": "v\r\nX-Injected: 1"}, nil, "not a valid HTTP header"},
		{"content-type", map[string]any{"Content-Type": "text/plain"}, nil, "set by the service"},
		{"signature, any case", map[string]any{"WEBHOOK-SIGNATURE": "v1,x"}, nil, "set by the service"},
		{"host", map[string]any{"host": "evil.example"}, nil, "set by the service"},
		{"21 headers", many, nil, "at most 20"},
	}
	for _, c := range cases {
		got, err := checkHeaders(c.in)
		if c.want == nil {
			wantError(t, c.name, err, model.CodeInvalidParameter, c.says)
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.name, k, got[k], v)
			}
		}
	}
}

// Signatures follow Standard Webhooks: the convention's own test vector, and one
// signature per secret while a rotation overlaps.
func TestSign(t *testing.T) {
	t.Parallel()
	key, err := SecretKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	bare, err := SecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil || string(bare) != string(key) {
		t.Fatalf("a secret without whsec_ decodes to %x, %v; want %x", bare, err, key)
	}
	const id, ts, body = "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", `{"test": 2432232314}`
	const vector = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
	other, _ := SecretKey(newSecret())
	cases := []struct {
		name    string
		secrets [][]byte
		id, ts  string
		body    string
		want    func(string) bool
	}{
		{"the convention's vector", [][]byte{key}, id, ts, body, func(s string) bool { return s == vector }},
		{"two secrets during a rotation", [][]byte{other, key}, id, ts, body, func(s string) bool {
			parts := strings.Split(s, " ")
			return len(parts) == 2 && parts[1] == vector && strings.HasPrefix(parts[0], "v1,") && parts[0] != vector
		}},
		{"another body", [][]byte{key}, id, ts, body + " ", func(s string) bool { return s != vector }},
		{"another timestamp", [][]byte{key}, id, "1614265331", body, func(s string) bool { return s != vector }},
		{"another id", [][]byte{key}, "msg_other", ts, body, func(s string) bool { return s != vector }},
	}
	for _, c := range cases {
		if got := Sign(c.secrets, c.id, c.ts, []byte(c.body)); !c.want(got) {
			t.Errorf("%s: signature %q", c.name, got)
		}
	}
	if s := newSecret(); !strings.HasPrefix(s, "whsec_") {
		t.Errorf("new secret %q lacks whsec_", s)
	} else if k, err := SecretKey(s); err != nil || len(k) != 32 {
		t.Errorf("new secret %q decodes to %d bytes, %v; want a 32-byte key", s, len(k), err)
	}
}

// The two retry rules of section 6.3, with the events each treats apart.
func TestRetrySchedules(t *testing.T) {
	t.Parallel()
	h := time.Hour
	cases := []struct {
		name    string
		cfg     Config
		event   string
		waits   []time.Duration // before each retry: attempts are len+1
		timeout time.Duration
	}{
		{"A, any event: 3 at once, 3 after 1 h, 3 after 2 h", Config{Variant: VariantA}, "transactions/created", []time.Duration{0, 0, h, 0, 0, 2 * h, 0, 0}, 5 * time.Second},
		{"A, login succeeded: the first 3 only", Config{Variant: VariantA}, "item/login_succeeded", []time.Duration{0, 0}, 5 * time.Second},
		{"A, waiting for input is not apart", Config{Variant: VariantA}, "item/waiting_user_input", []time.Duration{0, 0, h, 0, 0, 2 * h, 0, 0}, 5 * time.Second},
		{"A by default", Config{}, "item/updated", []time.Duration{0, 0, h, 0, 0, 2 * h, 0, 0}, 5 * time.Second},
		{"B, any event: at once, 15 min, 2 h", Config{Variant: VariantB}, "payment_intent/completed", []time.Duration{15 * time.Minute, 2 * h}, 10 * time.Second},
		{"B, login succeeded: 6 min apart", Config{Variant: VariantB}, "item/login_succeeded", []time.Duration{6 * time.Minute, 6 * time.Minute}, 10 * time.Second},
		{"B, waiting for input: 6 min apart", Config{Variant: VariantB}, "item/waiting_user_input", []time.Duration{6 * time.Minute, 6 * time.Minute}, 10 * time.Second},
		{"configured schedule and time-out", Config{Variant: VariantB, Schedule: []time.Duration{time.Second}, Timeout: time.Second}, "all", []time.Duration{time.Second}, time.Second},
		{"configured short schedule", Config{Variant: VariantA, ShortSchedule: []time.Duration{}}, "item/login_succeeded", []time.Duration{}, 5 * time.Second},
	}
	for _, c := range cases {
		cfg := c.cfg
		cfg.fill()
		got := cfg.schedule(c.event)
		if len(got) != len(c.waits) || cfg.Timeout != c.timeout || cfg.JobTimeout() != c.timeout+2*time.Second {
			t.Errorf("%s: waits %v, time-out %s (job %s); want %v and %s", c.name, got, cfg.Timeout, cfg.JobTimeout(), c.waits, c.timeout)
			continue
		}
		for i := range got {
			if got[i] != c.waits[i] {
				t.Errorf("%s: waits %v, want %v", c.name, got, c.waits)
				break
			}
		}
	}
}

// Variant B never retries the answers that say the request itself is wrong.
func TestNeverRetried(t *testing.T) {
	t.Parallel()
	for code, want := range map[int]bool{400: true, 401: true, 403: true, 404: true, 405: true,
		200: false, 302: false, 408: false, 409: false, 410: false, 429: false, 500: false, 502: false, 503: false} {
		if neverRetried(code) != want {
			t.Errorf("neverRetried(%d) = %v, want %v", code, !want, want)
		}
	}
}
