package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// walked lists the shell blocks TestREADMEWalkThrough runs, in order, in one shell: the
// README's Quickstart (an API key, a connected bank, a payment), then the reference pages
// that continue in its shell with its API_KEY. A page's whole file is walked when section
// is empty. TestDocsGoCommands holds every other shell block to go commands alone.
var walked = []struct{ file, section string }{
	{"README.md", "Quickstart"},
	{"docs/payments.md", ""},
	{"docs/boletos.md", ""},
	{"docs/statements.md", ""},
	{"docs/merchants.md", "Looking merchants up"},
	{"docs/categories.md", ""},
	{"docs/credit-information.md", "Try it"},
	{"docs/sandbox-control.md", "Control: fault injection"},
	{"docs/sandbox-control.md", "Control: events and the command line"},
	{"docs/sandbox-control.md", "Control: payments"},
	{"docs/sandbox.md", "Custom sandbox users"},
	{"docs/test-clocks.md", ""},
	// Its clean slate empties the application: it stays the last page walked.
	{"docs/sandbox-control.md", "Control: items and data"},
}

var shBlockRE = regexp.MustCompile("(?ms)^```sh\n(.*?)^```")

// shBlocks gives the sh blocks of a file of the repository, or of one of its "## " sections.
func shBlocks(t *testing.T, file, section string) []string {
	t.Helper()
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if section != "" {
		_, after, ok := strings.Cut(text, "\n## "+section+"\n")
		if !ok {
			t.Fatalf("%s has no ## %s section", file, section)
		}
		text, _, _ = strings.Cut(after, "\n## ")
	}
	var out []string
	for _, m := range shBlockRE.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%s has no sh block under ## %s", file, section)
	}
	return out
}

// The walked blocks, run as printed (the keys the service printed in place of the
// Quickstart's placeholder, this test's address in place of 127.0.0.1:8080) in one shell
// against a fresh service: every call works, the item asks for its token and reaches
// SUCCESS, accounts and transactions come back, the event reaches the receiver, its delivery
// logged; the payment completes and is partly refunded; the boleto issued is paid; fault
// rules fault a call, are counted, and are taken back.
func TestREADMEWalkThrough(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var received []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev struct{ Event string }
		_ = json.Unmarshal(b, &ev)
		mu.Lock()
		received = append(received, ev.Event)
		mu.Unlock()
	}))
	defer receiver.Close()

	s := start(t, "PONTE_DATA_DIR="+t.TempDir(), "DATABASE_URL=", "PONTE_ALLOW_INSECURE_WEBHOOKS=1",
		"PONTE_SANDBOX_STEP_DELAY=50ms", "PONTE_PAYMENT_STEP_DELAY=100ms")
	var keys map[string]string
	if err := json.Unmarshal([]byte(keysRE.FindString(s.stdout.String())), &keys); err != nil {
		t.Fatalf("no keys printed: %v\n%s", err, s.stdout)
	}
	var script strings.Builder
	for _, w := range walked {
		for _, block := range shBlocks(t, w.file, w.section) {
			script.WriteString(block)
		}
	}
	const placeholder = "CLIENT_ID=... CLIENT_SECRET=..."
	if strings.Count(script.String(), placeholder) != 1 {
		t.Fatalf("the Quickstart no longer has its %s line, once", placeholder)
	}
	text := strings.Replace(script.String(), placeholder, "CLIENT_ID="+keys["clientId"]+" CLIENT_SECRET="+keys["clientSecret"], 1)
	text = strings.ReplaceAll(text, "http://127.0.0.1:8080", s.url)

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-c", text)
	cmd.Env = append(os.Environ(), "WEBHOOK_URL="+receiver.URL+"/hooks")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented blocks failed: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		// Connect a bank.
		"\nWAITING_USER_INPUT\n", "\nSUCCESS\n", `"subtype":"CHECKING_ACCOUNT"`, `"results":[{"id":"`, `"event":"item/created"`, `"status":"DELIVERED"`,
		// Pay, then the payments page's refund.
		`"status":"PAYMENT_COMPLETED"`, `"status":"REFUND_IN_PROGRESS"`, `"refundedAmount":4` + "\n",
		// The boletos page: issued OPEN, then paid.
		`"seuNumero":"PED-1"`, "\nPAID\n", `"status":"PAID"`,
		// A statement file: its transactions read back; the statements page's CSV account.
		`"description":"SALARIO ACME LTDA"`, `"amount":-1200`, `"providerId":"202603051"`, `"number":"","balance":null,"name":"Conta"`,
		// Merchants by CNPJ: the sandbox's Carrefour (REST) and Smart Fit (GraphQL).
		`"cnae":"4711301","category":"Supermercado"}],"notFoundMerchants":["11222333000181","P2N9G29X000102"],"invalidCnpjs":["123"]}`,
		`{"data":{"merchants":{"foundMerchants":[{"name":"SMART FIT","category":"Academia"}]`,
		// Fault injection: the rules set, a 503 that says it was injected, counted, taken back.
		`{"faults":[{"route":"GET /categories","kind":"SERVER_ERROR","probability":1,"status":503}`, "HTTP/1.1 503", "Ponte-Injected-Fault: ",
		`"sandboxFaults":[{"route":"GET /categories"`, `ponte_injected_faults_total{kind="SERVER_ERROR",route="GET /categories"} `, `{"faults":[]}`,
		// Sandbox control of an item, then the clean slate.
		`"status":"UPDATED","executionStatus":"PARTIAL_SUCCESS"`, `"code":"SITE_NOT_AVAILABLE","message":"Banco fora do ar"`,
		`"status":"LOGIN_ERROR","executionStatus":"INVALID_CREDENTIALS"`, `"status":"UPDATED","executionStatus":"SUCCESS"`, `"clientId":"`,
		// Sandbox control of data: a transaction added, one changed, collected, then removed.
		`"operation":"CHANGE"`, `"description":"Padaria Sandbox"`, `"operation":"REMOVE"`,
		// Investments added, collected; the transaction changes' history marked.
		`"movementType":"CREDIT"`, `"name":"CDB Sandbox 120% CDI"`, `"description":"APLICACAO CDB SANDBOX"`, "\n\"appliedAt\":\"",
		// A custom sandbox user: registered, its transaction collected, a seeded name refused.
		`"username":"ana.souza"`, `"description":"PADARIA DO ZE"`, "seeded name: 400\n",
		// A dated request's scheduled payments moved by control: one paid, one canceled, the consent CONSUMED.
		`"from":"SCHEDULED","status":"COMPLETED"`, `"from":"SCHEDULED","status":"CANCELED"`, `"status":"CONSUMED"`,
		"boleto move: 403\n",
		// Test clocks: a Connect Token and an MFA wait of an item on a clock end in clock time.
		"token after the advance: API_KEY_EXPIRED\n", `"executionStatus":"USER_INPUT_TIMEOUT"`,
		// A pre-authorization on a test clock refuses a payment over its daily limit in clock time.
		"over the daily limit: 400\n",
		// Moves marked in the intent's history; a bulk payment approved and settled by moves.
		`"cause":"SANDBOX_CONTROL"`, `"from":"CREATED","status":"PAYMENT_IN_PROGRESS"`, `"from":"PAYMENT_IN_PROGRESS","status":"COMPLETED"`,
		// A smart transfer payment under a clocked pre-authorization, rejected by a move.
		`"from":"PAYMENT_PENDING","status":"PAYMENT_REJECTED"`,
		// An event fired on demand, read back from the event stream.
		`"sandboxControl":true`, "\nevent: payment_intent/completed\n", `"event":"smart_transfer_preauthorization/error"`, `"code":"CONSENT_REJECTED","description":"Recusada"`,
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("the output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"codeDescription"`) {
		t.Fatalf("a call in the documented blocks was refused:\n%s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) == 0 || received[0] != "item/created" {
		t.Fatalf("the receiver got %v", received)
	}
}
