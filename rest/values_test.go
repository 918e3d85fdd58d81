package rest_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// The interface document (a copy of /work/shared/spec/service-interface.md) is where the
// documented values come from: the test reads them, it does not type them again.
const interfaceDoc = "testdata/service-interface.md"

// documentedSet is one list of values the interface document gives for a field, found by
// the sentence that introduces it.
type documentedSet struct {
	name  string // the field, as docs/sandbox.md's table names it
	field string // the JSON field whose answers must show each value
	re    string // the document's sentence; group 1 holds the values
}

// The sets this test walks. Each value of each must be seen in an answer of the service.
var documentedSets = []documentedSet{
	{"connector type", "type", `\| type \| string \| One of ([A-Z_, ]+) \|`},
	{"connector health status", "status", `Contains status \(([A-Z_, ]+)\)`},
	{"item status and executionStatus", "status|executionStatus", `Status and executionStatus values seen: ([^\n]+)\.`},
	{"transaction status", "status", `\| status \| string \| ([A-Z_]+ or [A-Z_]+) \|`},
	{"feeType", "feeType", `feeType values: ([A-Z_, ]+)\.`},
	{"otherCreditsType", "otherCreditsType", `otherCreditsType values: ([A-Z_, ]+)\.`},
	{"card operationType", "operationType", `Credit cards: ([A-Z_, ]+) \|`},
}

// timeValues need time to pass (consent expiry, schedule runs, the daily auto-sync) and are
// produced through the test clocks (issue 38 item 2), wired in once those are merged. They
// are the only documented values of the sets named in valuesNeedingTime that this test
// does not produce yet.
var timeValues = []string{"payment intent ERROR", "payment intent CONSUMED", "scheduled_payment/completed",
	"scheduled_payment/error", "scheduled_payment/all_completed", "triggeredBy SYNC"}

func documentedValues(t *testing.T, doc string, s documentedSet) []string {
	t.Helper()
	m := regexp.MustCompile(s.re).FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("the interface document no longer has the %s sentence (%s)", s.name, s.re)
	}
	var out []string
	for _, v := range regexp.MustCompile(`[A-Z][A-Z_]+[A-Z]`).FindAllString(regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(m[1], ""), -1) {
		if v != "OR" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if len(out) < 2 {
		t.Fatalf("%s: read %v from %q", s.name, out, m[0])
	}
	return out
}

// seen gathers every string value the service answered, by field name, wherever it sits.
type seen map[string]map[string]bool

func (s seen) add(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, f := range x {
			if str, ok := f.(string); ok {
				if s[k] == nil {
					s[k] = map[string]bool{}
				}
				s[k][str] = true
			} else {
				s.add(f)
			}
		}
	case []any:
		for _, e := range x {
			s.add(e)
		}
	}
}

func TestEveryDocumentedValueReachable(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(interfaceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	env := testsupport.New(t)
	key := env.NewClient(t, "every-value").APIKey
	got := seen{}
	answer := func(method, path string, body any) map[string]any {
		m := env.Do(t, method, path, key, body).Want(200).Map()
		got.add(m)
		return m
	}

	// Connectors: the catalogue with the sandbox connectors (11 INVOICE, 12 OTHER).
	answer("GET", "/connectors?sandbox=true&pageSize=100", nil)

	// Items: the scenario users, and a control action for LOGIN_ERROR.
	items := map[string]string{}
	for _, user := range []string{sandboxEveryValueUser, "user-ok-account-error", "user-ok-img", "user-ok"} {
		items[user] = createItem(t, env, key, 0, map[string]any{"user": user, "password": "password-ok"}).ID.String()
	}
	for user, id := range items {
		done := testsupport.Settled
		if user == "user-ok-img" {
			done = func(it *model.Item) bool { return it.Status == model.ItemWaitingUserInput }
		}
		env.WaitItem(t, key, id, done)
		answer("GET", "/items/"+id, nil)
	}
	answer("POST", "/sandbox/items/"+items["user-ok"]+"/status", map[string]any{"status": "LOGIN_ERROR"})

	// The card of user-ok-every-value: every fee type, otherCreditsType and operationType.
	accounts := answer("GET", "/accounts?itemId="+items[sandboxEveryValueUser], nil)
	for _, a := range accounts["results"].([]any) {
		answer("GET", "/transactions?pageSize=500&accountId="+a.(map[string]any)["id"].(string), nil)
	}

	// CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR: connector 12's access code expires, so
	// an update must send it again.
	codes := documentedValues(t, doc, documentedSet{"codeDescription", "", `(?s)### 7\.3 codeDescription values(.*?)### 7\.4`})
	const required = "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR"
	if !slices.Contains(codes, required) {
		t.Fatalf("the interface document's codeDescription table no longer has %s: %v", required, codes)
	}
	vault := createItem(t, env, key, 12, map[string]any{"cpf": "52998224725", "accessCode": "AB12CD34"}).ID.String()
	env.WaitItem(t, key, vault, testsupport.Settled)
	m := env.Do(t, "PATCH", "/items/"+vault, key, map[string]any{}).WantError(400, required)
	got.add(m)

	produced := []string{required}
	for _, s := range documentedSets {
		for _, v := range documentedValues(t, doc, s) {
			ok := false
			for _, f := range strings.Split(s.field, "|") {
				ok = ok || got[f][v]
			}
			if !ok {
				t.Errorf("%s %s: documented, never seen in an answer (seen %v)", s.name, v, keys(got[s.field]))
			}
			produced = append(produced, v)
		}
	}

	// The six values that need time: exactly these, each still documented.
	wantTime := []string{"ERROR", "CONSUMED", "scheduled_payment/completed", "scheduled_payment/error", "scheduled_payment/all_completed", "SYNC"}
	if len(timeValues) != len(wantTime) {
		t.Fatalf("timeValues %v: the set is the six values that need a test clock", timeValues)
	}
	intent := regexp.MustCompile(`### Payment intent\n\nStatuses: ([^\n]+)`).FindStringSubmatch(doc)
	trig := regexp.MustCompile(`\| triggeredBy \| ([^\n]+)`).FindStringSubmatch(doc)
	if intent == nil || trig == nil {
		t.Fatal("the interface document no longer lists the intent statuses or triggeredBy")
	}
	for i, v := range wantTime {
		if !strings.HasSuffix(timeValues[i], v) {
			t.Errorf("timeValues[%d] = %q, want the value %s", i, timeValues[i], v)
		}
		var where string
		switch {
		case strings.HasPrefix(v, "scheduled_payment/"):
			where = regexp.MustCompile(`\| scheduled_payment/created, /completed, /error, /canceled \|[^\n]*\n\| scheduled_payment/all_created, /all_completed \|`).FindString(doc)
			if !strings.Contains(where, "/"+strings.TrimPrefix(v, "scheduled_payment/")) {
				where = ""
			}
		case v == "SYNC":
			where = map[bool]string{true: trig[1]}[strings.Contains(trig[1], "SYNC (auto-sync)")]
		default:
			where = map[bool]string{true: intent[1]}[regexp.MustCompile(`\b`+v+`\b`).MatchString(intent[1])]
		}
		if where == "" {
			t.Errorf("%s: no longer documented where the interface names it", timeValues[i])
		}
	}

	// docs/sandbox.md's table names exactly the values produced here, and the six.
	rows := sandboxValuesTable(t)
	named := map[string]bool{}
	for _, r := range rows {
		named[r[1]], named[r[0]+" "+r[1]] = true, true
		if !slices.Contains(produced, r[1]) && !slices.Contains(timeValues, r[0]+" "+r[1]) && !slices.Contains(timeValues, r[1]) {
			t.Errorf("docs/sandbox.md \"Every documented value\" has a row for %s %s, which this test does not produce", r[0], r[1])
		}
	}
	for _, v := range append(produced, timeValues...) {
		if !named[v] {
			t.Errorf("docs/sandbox.md \"Every documented value\" has no row for %s", v)
		}
	}
}

// sandboxEveryValueUser is sandbox.EveryValueUser, typed as a client would.
const sandboxEveryValueUser = "user-ok-every-value"

// sandboxValuesTable reads the rows under "## Every documented value": each value named in
// backquotes in the first column, with the field of the second.
func sandboxValuesTable(t *testing.T) [][2]string {
	t.Helper()
	raw, err := os.ReadFile("../docs/sandbox.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(raw), "\n## Every documented value\n")
	if !ok {
		t.Fatal(`docs/sandbox.md has no "## Every documented value" section`)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	var out [][2]string
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "value" {
			continue
		}
		for _, v := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			out = append(out, [2]string{strings.TrimSpace(cells[2]), v[1]})
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/sandbox.md's \"Every documented value\" table has no rows")
	}
	return out
}
