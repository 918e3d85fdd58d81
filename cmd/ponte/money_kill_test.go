package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestMoneySurvivesKill is the money invariants' subprocess variant: the real binary pays
// into a smart account, spends from it in bulk and refunds, while it is killed with SIGKILL
// at random points and restarted, three times. Once what was in flight has settled, every
// ledger movement balances, no smart account is below zero, the account holds exactly what
// the requests' final states add up to, and each paid request moved its money once. The
// seed is logged; PONTE_KILL_SEED replays one.
func TestMoneySurvivesKill(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PONTE_KILL_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (PONTE_KILL_SEED=%d replays its choices, not its timing)", seed, seed)
	rnd := rand.New(rand.NewPCG(seed, 0))
	env, keys := configured(t, "PONTE_PAYMENT_STEP_DELAY=100ms", "PONTE_WEBHOOK_TIMEOUT=500ms")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	recipient(t, s.url, key)
	status, sa := do(t, "POST", s.url+"/payments/smart-accounts", key, map[string]any{"name": "Conta", "taxNumber": "11222333000181",
		"email": "conta@example.com", "phoneNumber": "+5511999990000", "isSandbox": true})
	if status != 200 {
		t.Fatalf("smart account: %d %v", status, sa)
	}
	account := sa["id"].(string)
	var failures []string
	for round := range 3 {
		c := &chaos{base: s.url, key: key, account: account, rnd: rand.New(rand.NewPCG(rnd.Uint64(), uint64(round)))}
		done := make(chan struct{})
		go func() { defer close(done); c.run() }()
		// The kill point: somewhere in the round's payments, settlements and refunds.
		time.Sleep(time.Duration(300+rnd.IntN(1500)) * time.Millisecond)
		if err := s.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-s.exited
		s.cmd.ProcessState = &os.ProcessState{}
		<-done
		failures = append(failures, c.failures...)
		t.Logf("round %d: %d operations before the kill", round, c.ops)
		s = start(t, env...)
		key = apiKey(t, s.url, keys)
	}
	for _, f := range failures {
		t.Errorf("answered a server error: %s", f)
	}

	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	query := func(sql string, args ...any) int64 {
		var n int64
		if err := conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	waitWithin(t, "the money in flight to settle", 2*time.Minute, func() bool {
		return query(`SELECT count(*) FROM payment_requests WHERE status IN ('IN_PROGRESS', 'REFUND_IN_PROGRESS')`)+
			query(`SELECT count(*) FROM bulk_payments WHERE status = 'PAYMENT_IN_PROGRESS'`) == 0
	})
	if n := query(`SELECT count(*) FROM (SELECT movement_id FROM ledger_entries GROUP BY movement_id HAVING sum(credit - debit) <> 0 OR count(*) <> 2) m`); n != 0 {
		t.Errorf("%d ledger movements do not balance", n)
	}
	balance := query(`SELECT (COALESCE(sum(credit - debit), 0) * 100)::bigint FROM ledger_entries WHERE account = $1`, account)
	in := query(`SELECT (COALESCE(sum(amount - refunded_amount), 0) * 100)::bigint FROM payment_requests
		WHERE smart_account_id = $1 AND status IN ('COMPLETED', 'REFUNDED', 'REFUND_ERROR')`, account)
	out := query(`SELECT (COALESCE(sum(amount - refunded_amount), 0) * 100)::bigint FROM payment_requests
		WHERE source_smart_account_id = $1 AND status IN ('COMPLETED', 'REFUNDED', 'REFUND_ERROR')`, account)
	if balance < 0 || balance != in-out {
		t.Errorf("the smart account holds %d centavos; its requests add up to %d in and %d out", balance, in, out)
	}
	if n := query(`SELECT count(*) FROM payment_requests p WHERE (p.status IN ('COMPLETED', 'REFUNDED', 'REFUND_ERROR')) <>
		EXISTS (SELECT 1 FROM ledger_entries l WHERE l.reference = 'request:' || p.id)`); n != 0 {
		t.Errorf("%d requests paid without a movement, or moved money without being paid", n)
	}
	if n := query(`SELECT count(*) FROM payment_requests WHERE refunded_amount > amount`); n != 0 {
		t.Errorf("%d requests refunded more than they were paid", n)
	}
	t.Logf("after three kills: balance %d centavos, %d in, %d out", balance, in, out)
}

// chaos pays, spends and refunds against one process until a call fails (the process was
// killed). Refusals (409) are expected: it does not track what the service will accept.
type chaos struct {
	base, key, account string
	rnd                *rand.Rand
	requests           []string
	ops                int
	failures           []string
}

func (c *chaos) run() {
	for c.ops < 400 {
		c.ops++
		var ok bool
		switch c.rnd.IntN(4) {
		case 0, 1:
			ok = c.fund()
		case 2:
			ok = c.spend()
		default:
			ok = c.refund()
		}
		if !ok {
			return
		}
	}
}

func (c *chaos) call(method, path string, body any) (int, map[string]any, bool) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, c.base+path, bytes.NewReader(b))
	req.Header.Set("X-API-KEY", c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, false
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if resp.StatusCode >= 500 {
		c.failures = append(c.failures, method+" "+path+": "+string(raw))
	}
	return resp.StatusCode, m, true
}

func (c *chaos) decide(page string) bool {
	resp, err := http.PostForm(page, url.Values{"decision": {"authorize"}})
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

func (c *chaos) cents() float64 { return float64(1+c.rnd.IntN(5000)) / 100 }

func (c *chaos) fund() bool {
	status, p, ok := c.call("POST", "/payments/requests", map[string]any{"amount": c.cents(), "smartAccountId": c.account, "isSandbox": true})
	if !ok || status != 200 {
		return ok
	}
	c.requests = append(c.requests, p["id"].(string))
	status, n, ok := c.call("POST", "/payments/intents", map[string]any{"paymentRequestId": p["id"], "connectorId": 5,
		"parameters": map[string]any{"cpf": "11144477735"}})
	if !ok || status != 200 {
		return ok
	}
	return c.decide(n["consentUrl"].(string))
}

func (c *chaos) spend() bool {
	status, p, ok := c.call("POST", "/payments/requests", map[string]any{"amount": c.cents(), "isSandbox": true})
	if !ok || status != 200 {
		return ok
	}
	c.requests = append(c.requests, p["id"].(string))
	status, b, ok := c.call("POST", "/payments/bulk", map[string]any{"smartAccountId": c.account, "paymentRequestIds": []string{p["id"].(string)}})
	if !ok || status != 200 {
		return ok
	}
	return c.decide(b["paymentUrl"].(string))
}

func (c *chaos) refund() bool {
	if len(c.requests) == 0 {
		return true
	}
	body := map[string]any{}
	if c.rnd.IntN(2) == 0 {
		body["amount"] = float64(1+c.rnd.IntN(300)) / 100
	}
	_, _, ok := c.call("POST", "/payments/requests/"+c.requests[c.rnd.IntN(len(c.requests))]+"/refund", body)
	return ok
}
