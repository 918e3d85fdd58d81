package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// The GraphQL half of the authorization matrix (see authz_matrix_test.go): every query and
// mutation field the running server lists by introspection, with arguments built from
// their types (A's ids where an argument names a resource of A, valid inputs otherwise).

type azTypeRef struct {
	Kind   string     `json:"kind"`
	Name   string     `json:"name"`
	OfType *azTypeRef `json:"ofType"`
}

type azInputValue struct {
	Name string    `json:"name"`
	Type azTypeRef `json:"type"`
}

type azField struct {
	Name string         `json:"name"`
	Args []azInputValue `json:"args"`
	Type azTypeRef      `json:"type"`
}

type azType struct {
	Name        string         `json:"name"`
	Kind        string         `json:"kind"`
	Fields      []azField      `json:"fields"`
	InputFields []azInputValue `json:"inputFields"`
}

const azIntrospection = `query {
  __schema { queryType { name } mutationType { name }
    types { name kind fields { name args { name type { ...T } } type { ...T } } inputFields { name type { ...T } } } }
}
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`

func (r azTypeRef) named() string {
	if r.OfType != nil {
		return r.OfType.named()
	}
	return r.Name
}

func (r azTypeRef) String() string {
	switch r.Kind {
	case "NON_NULL":
		return r.OfType.String() + "!"
	case "LIST":
		return "[" + r.OfType.String() + "]"
	}
	return r.Name
}

// azTokenFields are the fields within reach of A's Connect Token (bound to A's item):
// auth.connectTokenReach. createItem is not: a token that has its item makes no other.
var azTokenFields = map[string]bool{"connectors": true, "connector": true, "validateConnectorParameters": true,
	"item": true, "accounts": true, "itemResources": true, "updateItem": true, "submitItemMFA": true,
	"connectSession": true, "uploadStatement": true}

// azIDKinds maps the noun of a field taking an id to A's fixture of that kind.
var azIDKinds = map[string]string{"item": "item", "itemMFA": "item", "account": "account", "transaction": "transaction",
	"transactionCategory": "transaction", "investment": "investment", "loan": "loan", "bill": "bill", "consent": "consent",
	"webhook": "webhook", "event": "event", "paymentRequest": "request", "paymentIntent": "intent", "paymentCustomer": "customer",
	"paymentRecipient": "recipient", "paymentInstitution": "institution", "scheduledPayment": "schedule",
	"automaticPixPayment": "charge", "identity": "identity", "creditInformation": "creditInfo", "category": "category", "connector": "connector",
	"boletoConnection": "boletoConnection", "boleto": "boleto", "smartAccount": "smartAccount", "smartAccountBalance": "smartAccount",
	"smartTransferPreauthorization": "preauth", "smartTransferPayment": "stPayment", "bulkPayment": "bulk",
	"paymentPage": "payReq", "paymentConsent": "intent", "pixCharge": "pixIntent", "boletoPixCharge": "boleto",
	"preauthorizationConsent": "preauth", "bulkPaymentConsent": "bulk", "startPaymentIntentAsPayer": "payReq",
	"decidePaymentIntent": "decidedIntent", "payBoletoPixCharge": "paidBoleto", "decidePreauthorization": "preauthEnded",
	"preauthorizationAsPayer": "preauthEnded", "decideBulkPayment": "bulkEnded",
	"sandboxAuthorization": "action", "decideSandboxAuthorization": "action",
	"sandboxResetItemLogin": "item", "sandboxSetItemStatus": "item", "sandboxSetNextExecution": "item", "sandboxSyncItem": "item",
	"sandboxAddTransactions": "item", "sandboxChangeTransaction": "item", "sandboxRemoveTransaction": "item",
	"sandboxMovePayment": "request",
	"testClock":          "testClock", "advanceTestClock": "testClock",
	"sandboxBillChanges": "item", "sandboxAddBills": "item", "sandboxChangeBill": "item", "sandboxRemoveBill": "item",
	"categoryRule":              "categoryRule",
	"sandboxTransactionChanges": "item", "sandboxInvestmentChanges": "item", "sandboxAddInvestments": "item", "sandboxChangeInvestment": "item",
	"sandboxRemoveInvestment": "item", "sandboxAddInvestmentTransactions": "item", "sandboxChangeInvestmentTransaction": "item",
	"sandboxRemoveInvestmentTransaction": "item"}

// azPublicFields need no credential: the unguessable id in the link they serve is the
// capability (the payer's pages, a bulk payment's owner's page, the PIX charges' locations).
// Every credential gets what none gets. The mutations are called on what was decided or
// paid already, so each call is refused alike and changes nothing.
var azPublicFields = map[string]bool{"paymentPage": true, "paymentConsent": true, "pixCharge": true, "boletoPixCharge": true,
	"preauthorizationConsent": true, "bulkPaymentConsent": true, "startPaymentIntentAsPayer": true, "decidePaymentIntent": true,
	"payBoletoPixCharge": true, "decidePreauthorization": true, "revokePreauthorizationAsPayer": true, "decideBulkPayment": true,
	"createApiKey": true, "sandboxAuthorization": true, "decideSandboxAuthorization": true}

// azNoun strips the verb of a mutation: deleteItem -> item.
func azNoun(field string) string {
	for _, verb := range []string{"update", "delete", "cancel", "retry", "redeliver", "submit", "schedule", "create", "rotate", "revoke"} {
		if rest, ok := strings.CutPrefix(field, verb); ok && rest != "" && strings.ToUpper(rest[:1]) == rest[:1] {
			return strings.ToLower(rest[:1]) + rest[1:]
		}
	}
	return field
}

// azTokenItemFields address A's Open Finance item, the one A's Connect Token is bound to.
var azTokenItemFields = map[string]bool{"item": true, "accounts": true, "itemResources": true, "updateItem": true,
	"submitItemMFA": true, "uploadStatement": true, "deleteItem": true, "consents": true, "createConnectToken": true, "consentsPage": true}

// azUUIDKind says which of A's fixtures an id argument of field names.
func azUUIDKind(field, arg string) string {
	switch {
	case azTokenItemFields[field] && (arg == "itemId" || arg == "id"):
		return "ofItem"
	}
	switch arg {
	case "itemId":
		return azItemKind(field)
	case "accountId":
		if field == "bills" || field == "billsPage" {
			return "card"
		}
		return "account"
	case "investmentId":
		return "investment"
	case "transactionId":
		if strings.Contains(field, "InvestmentTransaction") {
			return "investmentTx"
		}
		return "transaction"
	case "billId":
		return "bill"
	case "webhookId":
		return "webhook"
	case "categoryId":
		return "category"
	case "paymentRequestId":
		switch {
		case strings.Contains(strings.ToLower(field), "automaticpix"):
			return "autoReq"
		case strings.Contains(field, "cheduled"):
			return "schedReq"
		}
		return "request"
	case "id":
		return azIDKinds[azNoun(field)]
	}
	return ""
}

// azInputs are valid inputs by input type, the REST bodies of the same operations.
func azInputs(f map[string]string) map[string]any {
	b := azBodies(f)
	return map[string]any{
		"CreateItemInput": b["item"], "UpdateItemInput": b["empty"], "WebhookInput": b["webhook"],
		"PaymentRequestInput": b["request"], "PixQrPaymentRequestInput": b["pixqr"], "PaymentIntentInput": b["intent"],
		"PaymentCustomerInput": b["customer"], "PaymentRecipientInput": b["recipient"], "AutomaticPixRequestInput": b["terms"],
		"AutomaticPixPaymentInput": b["charge"], "ConnectTokenOptions": map[string]any{"clientUserId": "b-user"},
		"CreateBoletoInput": b["boleto"], "SmartAccountInput": b["smartAccount"],
		"TestClockInput": b["testClock"], "TestClockAdvanceInput": b["clockAdvance"],
		"SmartTransferPreauthorizationInput": b["preauth"], "SmartTransferPaymentInput": b["stPayment"], "BulkPaymentInput": b["bulk"],
		"SandboxFaultInput":      azFaultRule,
		"SandboxItemStatusInput": b["sandboxStatus"], "SandboxNextExecutionInput": b["sandboxNext"],
		"SandboxEventInput": b["sandboxEvent"], "SandboxPaymentMoveInput": b["sandboxPayMove"],
		"SandboxTransactionInput": b["sandboxTx"].(map[string]any)["transactions"].([]any)[0], "SandboxTransactionPatch": b["sandboxTxPatch"],
		"SandboxBillInput": b["sandboxBills"].(map[string]any)["bills"].([]any)[0], "SandboxBillPatch": b["sandboxBillPatch"],
		"CategoryRuleInput":      b["categoryRule"],
		"SandboxInvestmentInput": b["sandboxInv"].(map[string]any)["investments"].([]any)[0], "SandboxInvestmentPatch": b["sandboxInvPatch"],
		"SandboxInvestmentTransactionInput": b["sandboxInvTx"].(map[string]any)["transactions"].([]any)[0], "SandboxInvestmentTransactionPatch": b["sandboxInvTxPatch"],
	}
}

type azCall struct {
	query  string
	vars   map[string]any
	ownsA  bool // an argument addresses a resource of A (not merely filters a list by one)
	reason string
}

// azBuild writes the operation calling one field, or says why it cannot.
func azBuild(s map[string]azType, op string, fd azField, f map[string]string) azCall {
	c := azCall{vars: map[string]any{}}
	var decls, args []string
	filledOptional := false
	inputs := azInputs(f)
	for i, a := range fd.Args {
		required := a.Type.Kind == "NON_NULL"
		var v any
		switch base := a.Type.named(); {
		case base == "UUID":
			kind := azUUIDKind(fd.Name, a.Name)
			if kind == "" || (!required && filledOptional) {
				if required {
					c.reason = fmt.Sprintf("argument %s: no fixture of A fits this id; extend azUUIDKind", a.Name)
					return c
				}
				continue
			}
			v, filledOptional = f[kind], filledOptional || !required
			c.ownsA = c.ownsA || !azShared[kind] && (required || !azIsList(s, fd.Type))
		case !required:
			continue
		case base == "Int":
			v = 0
		case base == "String" && azUUIDKind(fd.Name, a.Name) == "category":
			v = f["category"]
		case base == "String" && fd.Name == "createApiKey":
			v = f[a.Name] // A's clientId and clientSecret
		case base == "String" && fd.Name == "sandboxMovePayment":
			v = "payment-requests" // the kind of its id's fixture, A's request
		case base == "String" && fd.Name == "decideSandboxAuthorization":
			v = "maybe" // refused, as the REST page's form is: the matrix changes nothing
		case base == "String":
			v = "x"
		case base == "Boolean":
			v = false
		case base == "DateTime":
			v = time.Now().UTC().Format(time.RFC3339)
		case base == "Upload":
			v = azUpload{}
		case base == "Map" && fd.Name == "submitItemMFA":
			v = map[string]any{"token": "123456"}
		case base == "Map":
			v = map[string]any{"user": "user-ok", "password": "password-ok"}
		case s[base].Kind == "INPUT_OBJECT" && inputs[base] != nil:
			v = inputs[base]
		default:
			c.reason = fmt.Sprintf("argument %s of type %s: add a valid value to azInputs", a.Name, a.Type)
			return c
		}
		name := fmt.Sprintf("v%d", i)
		decls = append(decls, "$"+name+": "+a.Type.String())
		args = append(args, a.Name+": $"+name)
		c.vars[name] = v
	}
	c.query = op
	if len(decls) > 0 {
		c.query += "(" + strings.Join(decls, ", ") + ")"
	}
	c.query += " { " + fd.Name
	if len(args) > 0 {
		c.query += "(" + strings.Join(args, ", ") + ")"
	}
	if sel := azSelection(s, fd.Type.named(), 0); sel != "" {
		c.query += " { " + sel + " }"
	}
	c.query += " }"
	return c
}

// azIsList reports a list or a page of results: an optional id argument filters it.
func azIsList(s map[string]azType, r azTypeRef) bool {
	if r.Kind == "NON_NULL" {
		r = *r.OfType
	}
	if r.Kind == "LIST" {
		return true
	}
	for _, fd := range s[r.Name].Fields {
		if fd.Name == "results" || fd.Name == "nodes" {
			return true
		}
	}
	return false
}

// azSelection selects every field without required arguments, and objects reached by
// fields without arguments two levels down: enough to show any id a leak would carry.
func azSelection(s map[string]azType, name string, depth int) string {
	tp := s[name]
	if tp.Kind != "OBJECT" && tp.Kind != "INTERFACE" && tp.Kind != "UNION" {
		return ""
	}
	parts := []string{"__typename"}
	for _, fd := range tp.Fields {
		required := false
		for _, a := range fd.Args {
			required = required || a.Type.Kind == "NON_NULL"
		}
		base := s[fd.Type.named()]
		switch {
		case required:
		case base.Kind == "SCALAR" || base.Kind == "ENUM":
			parts = append(parts, fd.Name)
		case depth < 2 && len(fd.Args) == 0:
			parts = append(parts, fd.Name+" { "+azSelection(s, base.Name, depth+1)+" }")
		}
	}
	return strings.Join(parts, " ")
}

type azGQLResult struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

// fieldError is the first error about the field itself (or about the whole request), as
// status and codeDescription. Errors of nested fields are the nested resolvers' own
// checks (a Connect Token reading its item may not read the item's identity).
func (r *azGQLResult) fieldError(field string) (int, string, bool) {
	for _, e := range r.Errors {
		if len(e.Path) == 0 || len(e.Path) == 1 && e.Path[0] == field {
			code, _ := e.Extensions["code"].(float64)
			desc, _ := e.Extensions["codeDescription"].(string)
			return int(code), desc, true
		}
	}
	return 0, "", false
}

// azUpload stands for a file argument: the operation goes as a multipart request.
type azUpload struct{}

func azGraphQLPost(t *testing.T, env *testsupport.Env, key, query string, vars map[string]any) (int, []byte, *azGQLResult) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	contentType := "application/json"
	for name, v := range vars {
		if _, ok := v.(azUpload); ok {
			body, contentType = azMultipart(query, vars, name)
		}
	}
	status, got := azSend(t, env, "POST", "/graphql", key, body, contentType)
	var r azGQLResult
	if err := json.Unmarshal(got, &r); err != nil && status < 500 {
		t.Errorf("POST /graphql %s: %d, not JSON: %.300s", query, status, got)
	}
	if len(r.Errors) == 0 && r.Data == nil {
		// A credential refused before GraphQL ran answers with the REST error body.
		st, code := azErrorCode(got)
		if code != "" {
			r.Errors = append(r.Errors, struct {
				Message    string         `json:"message"`
				Path       []any          `json:"path"`
				Extensions map[string]any `json:"extensions"`
			}{Extensions: map[string]any{"code": st, "codeDescription": code}})
		}
	}
	return status, got, &r
}

// azSchema reads the running server's types by introspection.
func azSchema(t *testing.T, env *testsupport.Env, key string) (types map[string]azType, query, mutation string) {
	_, raw, intro := azGraphQLPost(t, env, key, azIntrospection, nil)
	var schema struct {
		QueryType, MutationType struct{ Name string }
		Types                   []azType
	}
	if err := json.Unmarshal(intro.Data["__schema"], &schema); err != nil || len(schema.Types) == 0 {
		t.Fatalf("introspection: %v %.300s", err, raw)
	}
	types = map[string]azType{}
	for _, tp := range schema.Types {
		types[tp.Name] = tp
	}
	return types, schema.QueryType.Name, schema.MutationType.Name
}

func azGraphQL(t *testing.T, env *testsupport.Env, fx *azFixture, creds []azCred, keyA string) {
	types, queryType, mutationType := azSchema(t, env, keyA)
	type op struct {
		kind  string
		field azField
	}
	var ops []op
	for _, f := range types[queryType].Fields {
		ops = append(ops, op{"query", f})
	}
	for _, f := range types[mutationType].Fields {
		ops = append(ops, op{"mutation", f})
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].kind > ops[j].kind }) // queries first, then mutations
	var controls []azCall
	publicCodes := map[string]int{}
	for _, o := range ops {
		name := o.field.Name
		call := azBuild(types, o.kind, o.field, fx.ids)
		if call.reason != "" {
			t.Errorf("%s %s: %s", o.kind, name, call.reason)
			continue
		}
		if call.ownsA && o.kind == "query" {
			controls = append(controls, call)
		}
		sent, _ := json.Marshal(call.vars)
		public, publicCode := azPublicFields[name], -1
		for _, c := range creds {
			status, got, r := azGraphQLPost(t, env, c.key, call.query, call.vars)
			cell := o.kind + " " + name + " with " + c.name
			code, desc, failed := r.fieldError(name)
			switch {
			case status >= 500 || code >= 500:
				t.Errorf("%s: %d %.300s", cell, status, got)
			case public && name == "createApiKey" && c.code != "":
				// Its credential is the client's keys in its arguments, but /graphql wants one
				// in X-API-KEY first (see graph/prevalidate.go's publicFields): without a valid
				// one, the transport's 401; with any, the same answer.
				if code != 401 || desc != c.code {
					t.Errorf("%s: %d %s, want 401 %s: %.300s", cell, code, desc, c.code, got)
				}
			case public:
				if publicCode == -1 {
					publicCode = code
				}
				if code != publicCode || code == 401 || code == 403 {
					t.Errorf("%s: %d %s, want what this field answers without a credential (%d): %.300s", cell, code, desc, publicCode, got)
				}
			case c.code != "":
				if code != 401 || desc != c.code {
					t.Errorf("%s: %d %s, want 401 %s: %.300s", cell, code, desc, c.code, got)
				}
			case azPublicFields[name]:
				first, seen := publicCodes[name]
				if !seen {
					publicCodes[name], first = code, code
				}
				if code != first || code == 401 || code == 403 {
					t.Errorf("%s: %d %s, but this field answers every credential alike (%d): %.300s", cell, code, desc, first, got)
				}
			case c.token && azTokenFields[name]:
				if code == 401 || code == 403 {
					t.Errorf("%s: %d %s, but this field is within a Connect Token's reach: %.300s", cell, code, desc, got)
				}
			case c.token:
				if code != 403 || desc != model.CodeForbidden.String() {
					t.Errorf("%s: %d %s, want 403 %s: %.300s", cell, code, desc, model.CodeForbidden.String(), got)
				}
			case c.b && call.ownsA:
				if code != 404 {
					t.Errorf("%s: %d %s, want 404: %.300s", cell, code, desc, got)
				}
			}
			if !public && (c.code != "" || (c.token && !azTokenFields[name]) || (c.b && call.ownsA)) {
				if failed && len(r.Data[name]) > 0 && string(r.Data[name]) != "null" {
					t.Errorf("%s: refused, yet data came with the error: %.300s", cell, got)
				}
			}
			if !c.token && !public {
				if leaks := azLeaks(fx, string(sent), got); len(leaks) > 0 {
					t.Errorf("%s shows %s: %.300s", cell, strings.Join(leaks, ", "), got)
				}
			}
		}
	}
	azPublicRefusals(t, env, types, queryType, mutationType)
	for _, call := range controls {
		if _, got, r := azGraphQLPost(t, env, keyA, call.query, call.vars); len(r.Errors) > 0 {
			t.Errorf("A's own %s: %.300s", call.query, got)
		}
	}
	azTokenNested(t, env, fx, types, creds[3].key)
}

// errorAt is the error whose path is exactly path, as status and codeDescription.
func (r *azGQLResult) errorAt(path ...any) (int, string) {
	want := fmt.Sprint(path...)
	for _, e := range r.Errors {
		if fmt.Sprint(e.Path...) == want {
			code, _ := e.Extensions["code"].(float64)
			desc, _ := e.Extensions["codeDescription"].(string)
			return int(code), desc
		}
	}
	return 0, ""
}

// azTokenNested follows A's Connect Token into the fields of its item and of its accounts,
// one field at a time: it reads what GET /items/{id} and its reduced GET /accounts show (the
// accounts' hidden fields null), and every other field (products, spending, transactions,
// and any field added later) is a 403 FORBIDDEN at that field.
func azTokenNested(t *testing.T, env *testsupport.Env, fx *azFixture, types map[string]azType, tok string) {
	var itemDoc map[string]any
	var accounts struct{ Results []map[string]any }
	if status, got := azSend(t, env, "GET", "/items/"+fx.ids["ofItem"], tok, nil, ""); status != 200 || json.Unmarshal(got, &itemDoc) != nil {
		t.Fatalf("the token's item: %d %.300s", status, got)
	}
	if status, got := azSend(t, env, "GET", "/accounts?itemId="+fx.ids["ofItem"], tok, nil, ""); status != 200 ||
		json.Unmarshal(got, &accounts) != nil || len(accounts.Results) == 0 {
		t.Fatalf("the token's accounts: %d %.300s", status, got)
	}
	itemDoc["accounts"] = "reduced, checked field by field below"
	for _, hidden := range azHiddenAccountFields {
		accounts.Results[0][hidden] = nil
	}
	vars := map[string]any{"id": fx.ids["ofItem"]}
	check := func(typ string, doc map[string]any, query func(string) string, path func(string) []any) {
		for _, fd := range types[typ].Fields {
			sel := fd.Name
			if inner := azSelection(types, fd.Type.named(), 2); inner != "" {
				sel += " { " + inner + " }"
			}
			_, got, r := azGraphQLPost(t, env, tok, query(sel), vars)
			code, desc := r.errorAt(path(fd.Name)...)
			v, shown := doc[fd.Name]
			switch {
			case code >= 500:
				t.Errorf("%s.%s with the token: %.300s", typ, fd.Name, got)
			case !shown && (code != 403 || desc != model.CodeForbidden.String()):
				t.Errorf("%s.%s with the token: %d %s, want 403 %s (the REST view has no %s): %.300s", typ, fd.Name, code, desc, model.CodeForbidden.String(), fd.Name, got)
			case shown && code != 0:
				t.Errorf("%s.%s with the token: %d %s, but the REST view shows it: %.300s", typ, fd.Name, code, desc, got)
			case shown && v == nil && !strings.Contains(string(got), `"`+fd.Name+`":null`):
				t.Errorf("%s.%s with the token is not null, as the reduced REST view has it: %.300s", typ, fd.Name, got)
			}
		}
	}
	check("Item", itemDoc, func(sel string) string { return `query($id: UUID!) { item(id: $id) { ` + sel + ` } }` },
		func(f string) []any { return []any{"item", f} })
	check("Account", accounts.Results[0], func(sel string) string {
		return `query($id: UUID!) { item(id: $id) { accounts { nodes { ` + sel + ` } } } }`
	}, func(f string) []any { return []any{"item", "accounts", "nodes", float64(0), f} })
	check("Account", accounts.Results[0], func(sel string) string {
		return `query($id: UUID!) { accounts(itemId: $id) { results { ` + sel + ` } } }`
	}, func(f string) []any { return []any{"accounts", "results", float64(0), f} })
}

// azPublicRefusals: what the public fields refuse. An id that names nothing is a 404
// without a credential: the capability is the id, and a wrong one reaches nothing.
func azPublicRefusals(t *testing.T, env *testsupport.Env, types map[string]azType, queryType, mutationType string) {
	seen := 0
	for kind, typ := range map[string]string{"query": queryType, "mutation": mutationType} {
		for _, fd := range types[typ].Fields {
			if !azPublicFields[fd.Name] {
				continue
			}
			seen++
			ids := map[string]string{}
			for _, a := range fd.Args {
				if a.Type.named() == "UUID" {
					ids[azUUIDKind(fd.Name, a.Name)] = uuid.NewString()
				}
			}
			call := azBuild(types, kind, fd, ids)
			if call.reason != "" {
				t.Errorf("%s %s: %s", kind, fd.Name, call.reason)
				continue
			}
			// createApiKey is public to every credential but not to none: /graphql would not
			// count its wrong secrets against the login limit POST /auth applies.
			want := 404.0
			switch fd.Name {
			case "createApiKey":
				want = 401.0
			case "decideSandboxAuthorization":
				for k, v := range call.vars { // a decision the field takes, on an id that names nothing
					if v == "maybe" {
						call.vars[k] = "approve"
					}
				}
			case "sandboxAuthorization":
				// Nullable: an id that names nothing waiting reads as null, which the page
				// shows as "nothing waits here".
				if _, got, r := azGraphQLPost(t, env, "", call.query, call.vars); len(r.Errors) != 0 || string(r.Data[fd.Name]) != "null" {
					t.Errorf("%s %s on an unknown id without a credential: want null: %.300s", kind, fd.Name, got)
				}
				continue
			}
			if _, got, r := azGraphQLPost(t, env, "", call.query, call.vars); len(r.Errors) == 0 || r.Errors[0].Extensions["code"] != want {
				t.Errorf("%s %s on an unknown id without a credential: want %v: %.300s", kind, fd.Name, want, got)
			}
		}
	}
	if seen != len(azPublicFields) {
		t.Errorf("%d of the %d public fields are in the schema", seen, len(azPublicFields))
	}
}

// azMultipart is a GraphQL multipart request whose variable name is a small file.
func azMultipart(query string, vars map[string]any, name string) ([]byte, string) {
	plain := map[string]any{}
	for k, v := range vars {
		plain[k] = v
	}
	plain[name] = nil
	ops, _ := json.Marshal(map[string]any{"query": query, "variables": plain})
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("operations", string(ops))
	mw.WriteField("map", `{"0": ["variables.`+name+`"]}`)
	part, _ := mw.CreateFormFile("0", "extrato.ofx")
	part.Write([]byte("OFXHEADER:100\n\n<OFX></OFX>\n"))
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}
