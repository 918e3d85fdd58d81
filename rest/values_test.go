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
// documented values come from: the tests read them, they do not type them again.
const interfaceDoc = "testdata/service-interface.md"

// documentedSet is one list of values the interface document gives for a field, found by
// the sentence that introduces it.
type documentedSet struct {
	name string // the field, as docs/sandbox.md's table names it
	re   string // the document's sentence; group 1 holds the values
	vals string // the form of a value in it; absent: UPPER_CASE words
	one  bool   // the document gives one value (a value seen, an allowed filter)
}

// The sets the tests walk. Each value of each must be seen where its field is answered:
// values are matched by set, never across sets (ERROR is an intent's and a request's).
var documentedSets = []documentedSet{
	{name: "connector type", re: `\| type \| string \| One of ([A-Z_, ]+) \|`},
	{name: "connector health status", re: `Contains status \(([A-Z_, ]+)\)`},
	{name: "credential type", re: `\| type \| string \| Required\. One of ([a-z, ]+) \|`, vals: `[a-z]+`},
	{name: "item status or executionStatus", re: `Status and executionStatus values seen: ([^\n]+)\.`},
	{name: "item products", re: `Products collected\. Values: ([A-Z_, ]+) \|`},
	{name: "userAction type", re: "type \\(required: (`[a-z-]+` or `[a-z-]+`)\\)", vals: `[a-z][a-z-]*[a-z]`},
	{name: "account type", re: `\| type \| string \| Values seen: ([A-Z_, ]+) \|`},
	{name: "account subtype", re: `\| subtype \| string \| Values seen: ([A-Z_, ]+) \|`},
	{name: "transaction type", re: `\| type \| string \| (DEBIT [^|]+ or CREDIT [^|]+)\|`},
	{name: "transaction status", re: `\| status \| string \| ([A-Z_]+ or [A-Z_]+) \|`},
	{name: "feeType", re: `feeType values: ([A-Z_, ]+)\.`},
	{name: "otherCreditsType", re: `otherCreditsType values: ([A-Z_, ]+)\.`},
	{name: "card operationType", re: `Credit cards: ([A-Z_, ]+) \|`},
	{name: "payment intent status", re: `### Payment intent\n\nStatuses: ([^\n]+)`},
	{name: "payment request status", re: `### Payment request\n\nStatuses: ([^\n]+)`},
	{name: "triggeredBy", re: `\| triggeredBy \| (USER .*?INTERNAL)`},
	{name: "event", re: `(?s)### 6\.1 Event names(.*?)\nTransaction events`, vals: `[a-z_]+/[a-z_]+|, /[a-z_]+`},
	{name: "boleto status", re: `\| status \| string \| Required: ([A-Z, ]+) \|`},
	{name: "boleto paymentOrigin", re: `\| paymentOrigin \| string or null \| ([A-Z]+, [A-Z]+) or null \|`},
	{name: "boleto fine type", re: `\| fine \| object or null \| value \(number\), type \(([A-Z]+ or [A-Z]+)\) \|`},
	{name: "boleto interest type", re: `\| interest \| object \| value \(number\), type \(([A-Z]+)\) \|`, one: true},
	{name: "connector country", re: `\| country \| string \| Allowed value in the list filter: ([A-Z]+) \|`, vals: `[A-Z]+`, one: true},
	{name: "creditData status", re: `status \(value seen ([A-Z]+)\)`, one: true},
	{name: "creditData holderType", re: `holderType \(value seen ([A-Z]+)\)`, one: true},
	{name: "investment transaction type", re: `Values seen: type ([A-Z]+), movementType`, one: true},
	{name: "investment transaction movementType", re: `Values seen: type [A-Z]+, movementType ([A-Z]+)\.`, one: true},
	{name: "payment intent paymentMethod", re: `\| paymentMethod \| string \| ([A-Z]+ or [A-Z]+); default`},
	{name: "paymentData documentNumber type", re: `documentNumber \{type: ([A-Z]+ or [A-Z]+), value\}`},
	{name: "payment request recipient type", re: "\\| recipient \\| object or null \\| Polymorphic on `type`: ([A-Z_, ]+) \\|"},
	{name: "recipient account type", re: `account \{branch, number, type \(value seen ([A-Z_]+)\)\}`, one: true},
	{name: "codeDescription", re: `(?s)### 7\.3 codeDescription values(.*?)### 7\.4`, vals: `\n\| [A-Z][A-Z_]+[A-Z] \|`},
}

// cannotOccur names the documented values this service never answers, with the reason the
// interface gives; docs/sandbox.md's table shows each with its reason.
var cannotOccur = map[string]string{}

func documentedValues(t *testing.T, doc string, s documentedSet) []string {
	t.Helper()
	m := regexp.MustCompile(s.re).FindStringSubmatch(doc)
	if m == nil {
		t.Fatalf("the interface document no longer has the %s sentence (%s)", s.name, s.re)
	}
	form := s.vals
	if form == "" {
		form = `[A-Z][A-Z_]+[A-Z]`
	}
	text := m[1]
	if s.name != "event" && s.name != "codeDescription" {
		text = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(text, "")
	}
	var out []string
	prefix := ""
	for _, v := range regexp.MustCompile(form).FindAllString(text, -1) {
		switch {
		case s.name == "event" && strings.HasPrefix(v, ", /"):
			v = prefix + strings.TrimPrefix(v, ", /")
		case s.name == "event":
			prefix = v[:strings.Index(v, "/")+1]
		case s.name == "codeDescription":
			v = strings.Trim(v, "\n| ")
		}
		if v != "OR" && v != "or" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if len(out) < 2 && !(s.one && len(out) == 1) {
		t.Fatalf("%s: read %v from %q", s.name, out, m[0])
	}
	return out
}

func readInterfaceDoc(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(interfaceDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// seen gathers the values the service answered, by documented set.
type seen map[string]map[string]bool

func (s seen) put(set, v string) {
	if s[set] == nil {
		s[set] = map[string]bool{}
	}
	s[set][v] = true
}

// from records every string (or string in a list) held under field anywhere in v.
func (s seen) from(set string, v any, field string) {
	switch x := v.(type) {
	case map[string]any:
		for k, f := range x {
			if k == field {
				switch y := f.(type) {
				case string:
					s.put(set, y)
					continue
				case []any:
					for _, e := range y {
						if str, ok := e.(string); ok {
							s.put(set, str)
						}
					}
				}
			}
			s.from(set, f, field)
		}
	case []any:
		for _, e := range x {
			s.from(set, e, field)
		}
	}
}

// top records m[field] alone, for an answer whose nested objects hold the same field of
// another set (an intent's paymentRequest.status).
func (s seen) top(set string, m map[string]any, field string) {
	if v, ok := m[field].(string); ok {
		s.put(set, v)
	}
}

// check fails for each value of the named sets that was not seen.
func (s seen) check(t *testing.T, doc string, sets ...string) {
	t.Helper()
	for _, ds := range documentedSets {
		if !slices.Contains(sets, ds.name) {
			continue
		}
		for _, v := range documentedValues(t, doc, ds) {
			if _, no := cannotOccur[ds.name+" "+v]; !no && !s[ds.name][v] {
				t.Errorf("%s %s: documented, never seen in an answer (seen %v)", ds.name, v, keys(s[ds.name]))
			}
		}
	}
}

// TestEveryDocumentedValueReachable produces the values of the data sets: connectors, items,
// accounts and transactions, and (values_time_test.go) those that need a clock.
func TestEveryDocumentedValueReachable(t *testing.T) {
	t.Parallel()
	doc := readInterfaceDoc(t)
	env := testsupport.New(t)
	key := env.NewClient(t, "every-value").APIKey
	got := seen{}

	// Connectors: the catalogue with the sandbox connectors (11 INVOICE, 12 OTHER).
	conns := env.Do(t, "GET", "/connectors?sandbox=true&pageSize=100", key, nil).Want(200).Map()
	for _, c := range conns["results"].([]any) {
		got.top("connector type", c.(map[string]any), "type")
		got.top("connector country", c.(map[string]any), "country")
		got.from("credential type", c.(map[string]any)["credentials"], "type")
		got.from("connector health status", c.(map[string]any)["health"], "status")
		// A connector's products take the item's values (2.2): some only the statement-file
		// and brokerage connectors collect.
		got.from("item products", c.(map[string]any), "products")
	}

	// Items: the scenario users, and control actions.
	items := map[string]string{}
	waiting := []string{"user-ok-img", "user-ok-select", "user-ok-qr", "user-ok-auth-pending"}
	for _, user := range append([]string{sandboxEveryValueUser, "user-ok-account-error", "user-ok"}, waiting...) {
		items[user] = createItem(t, env, key, 0, map[string]any{"user": user, "password": "password-ok"}).ID.String()
	}
	for user, id := range items {
		done := testsupport.Settled
		if slices.Contains(waiting, user) {
			done = func(it *model.Item) bool {
				return it.Status == model.ItemWaitingUserInput || it.Status == model.ItemWaitingUserAction
			}
		}
		env.WaitItem(t, key, id, done)
		item := env.Do(t, "GET", "/items/"+id, key, nil).Want(200).Map()
		got.top("item status or executionStatus", item, "status")
		got.top("item status or executionStatus", item, "executionStatus")
		got.from("item products", item, "products")
		got.from("credential type", item["parameter"], "type")
		got.from("userAction type", item["userAction"], "type")
	}
	status := env.Do(t, "POST", "/sandbox/items/"+items["user-ok"]+"/status", key, map[string]any{"status": "LOGIN_ERROR"}).Want(200).Map()
	got.top("item status or executionStatus", status, "status")
	env.Do(t, "PATCH", "/items/"+items["user-ok"], key, map[string]any{"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200)
	env.WaitItem(t, key, items["user-ok"], testsupport.Settled)
	env.Do(t, "POST", "/sandbox/items/"+items["user-ok"]+"/sync", key, nil).Want(200)
	env.WaitItem(t, key, items["user-ok"], testsupport.Settled)

	// Accounts and transactions of user-ok-every-value: every fee type, otherCreditsType
	// and operationType on its card.
	for _, user := range []string{sandboxEveryValueUser, "user-ok"} {
		accounts := env.Do(t, "GET", "/accounts?itemId="+items[user], key, nil).Want(200).Map()
		for _, a := range accounts["results"].([]any) {
			got.top("account type", a.(map[string]any), "type")
			got.top("account subtype", a.(map[string]any), "subtype")
			if cd, ok := a.(map[string]any)["creditData"].(map[string]any); ok {
				got.top("creditData status", cd, "status")
				got.top("creditData holderType", cd, "holderType")
			}
			txs := env.Do(t, "GET", "/transactions?pageSize=500&accountId="+a.(map[string]any)["id"].(string), key, nil).Want(200).Map()
			for _, tx := range txs["results"].([]any) {
				m := tx.(map[string]any)
				got.top("transaction type", m, "type")
				got.top("transaction status", m, "status")
				if pd, ok := m["paymentData"].(map[string]any); ok {
					got.from("paymentData documentNumber type", pd["payer"], "type")
					got.from("paymentData documentNumber type", pd["receiver"], "type")
				}
				got.from("feeType", m["creditCardMetadata"], "feeType")
				got.from("otherCreditsType", m["creditCardMetadata"], "otherCreditsType")
				if a.(map[string]any)["type"] == "CREDIT" {
					got.top("card operationType", m, "operationType")
				}
			}
		}
	}

	invs := env.Do(t, "GET", "/investments?itemId="+items["user-ok"], key, nil).Want(200).Map()
	for _, inv := range invs["results"].([]any) {
		txs := env.Do(t, "GET", "/investments/"+inv.(map[string]any)["id"].(string)+"/transactions?pageSize=500", key, nil).Want(200).Map()
		for _, tx := range txs["results"].([]any) {
			got.top("investment transaction type", tx.(map[string]any), "type")
			got.top("investment transaction movementType", tx.(map[string]any), "movementType")
		}
	}

	produceOnClock(t, env, key, got)
	producePayments(t, env, key, got, items[sandboxEveryValueUser])
	produceBoletos(t, env, key, got)

	for _, ev := range env.Events(t, key, "") {
		got.put("event", ev["event"].(string))
		got.from("triggeredBy", ev["payload"], "triggeredBy")
	}
	got.check(t, doc, "connector type", "connector health status", "credential type", "item status or executionStatus", "item products",
		"userAction type", "account type", "account subtype", "transaction type", "transaction status", "feeType", "otherCreditsType",
		"card operationType", "payment intent status", "payment request status", "triggeredBy", "event",
		"boleto status", "boleto paymentOrigin", "boleto fine type", "boleto interest type", "connector country", "creditData status",
		"creditData holderType", "investment transaction type", "investment transaction movementType", "payment intent paymentMethod",
		"paymentData documentNumber type", "payment request recipient type", "recipient account type")
}

// sandboxEveryValueUser is sandbox.EveryValueUser, typed as a client would.
const sandboxEveryValueUser = "user-ok-every-value"
