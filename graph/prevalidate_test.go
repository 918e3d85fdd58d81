package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"ponte/graph/generated"
	"ponte/model"
)

func repeat(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// fanOut is F_i = { ...F_(i-1) ...F_(i-1) }, spread once from the operation.
func fanOut(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ ...F%d }\nfragment F0 on Query { __typename }\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return b.String()
}

const introspection = `query IntrospectionQuery { __schema { description queryType { name } mutationType { name } subscriptionType { name }
	types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } }
fragment FullType on __Type { kind name description specifiedByURL isOneOf
	fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
	inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef }
	enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
	ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } }`

func codeOf(err error) string {
	var e *model.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	var g *gqlerror.Error
	if errors.As(err, &g) {
		return fmt.Sprint(g.Extensions["code"])
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestPrevalidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, query, op string
		vars            map[string]any
		code            string
	}{
		{"introspection", introspection, "", nil, ""},
		{"ordinary query", `query Q($id: UUID!) { item(id: $id) { id accounts { edges { node { id } } } } }`, "Q", nil, ""},
		{"a field repeated 63 times is 1,953 pairs", "{" + strings.Repeat("__typename ", 63) + "}", "", nil, ""},
		{"64 times is 2,016", "{" + strings.Repeat("__typename ", 64) + "}", "", nil, model.CodeQueryTooComplex.String()},
		{"fields under distinct aliases share no path", "{" + repeat(60, `a%d: __type(name: "Q") { name name } `) + "}", "", nil, ""},
		{"40 merged parents: 780 + 780 pairs", "{" + strings.Repeat(`a: __type(name: "Q") { name } `, 40) + "}", "", nil, ""},
		{"50 merged parents: 1,225 + 1,225 pairs", "{" + strings.Repeat(`a: __type(name: "Q") { name } `, 50) + "}", "", nil, model.CodeQueryTooComplex.String()},
		{"repeats through fragments count", "{ ...A ...B ...C } fragment A on Query { " + strings.Repeat("__typename ", 30) + "} fragment B on Query { ...A } fragment C on Query { ...A }", "", nil, model.CodeQueryTooComplex.String()},
		{"2,000 selections", "{" + repeat(2000, "a%d: __typename ") + "}", "", nil, ""},
		{"2,001 selections", "{" + repeat(2001, "a%d: __typename ") + "}", "", nil, model.CodeQueryTooComplex.String()},
		{"a fragment counts where it is spread and on its own", "{ ...F }" + " fragment F on Query {" + repeat(1000, "a%d: __typename ") + "}", "", nil, model.CodeQueryTooComplex.String()},
		{"fan-out of 10", fanOut(10), "", nil, model.CodeQueryTooComplex.String()},
		{"fan-out of 100 saturates", fanOut(100), "", nil, model.CodeQueryTooComplex.String()},
		{"over the token limit", "{" + repeat(maxQueryTokens/3+1, "a%d: __typename ") + "}", "", nil, model.CodeQueryTooComplex.String()},
		{"a cycle", "{ ...A } fragment A on Query { ...B } fragment B on Query { ...C } fragment C on Query { ...A }", "", nil, "GRAPHQL_VALIDATION_FAILED"},
		{"an unused cycle", "{ __typename } fragment A on Query { ...A }", "", nil, "GRAPHQL_VALIDATION_FAILED"},
		{"a syntax error", "{ a ", "", nil, "GRAPHQL_PARSE_FAILED"},
		{"an unknown fragment is validation's to report", "{ ...Nope }", "", nil, ""},
		{"12 levels", "{" + strings.Repeat(" a {", 11) + " b" + strings.Repeat(" }", 11) + " }", "", nil, ""},
		{"13 levels", "{" + strings.Repeat(" a {", 12) + " b" + strings.Repeat(" }", 12) + " }", "", nil, model.CodeQueryTooDeep.String()},
		{"13 levels through fragments", "{ a { a { a { ...F } } } } fragment F on T { a { a { a { a { a { a { a { a { a { b } } } } } } } } } }", "", nil, model.CodeQueryTooDeep.String()},
		{"depth counts the operation run", "query A { __typename } query B {" + strings.Repeat(" a {", 12) + " b" + strings.Repeat(" }", 12) + " }", "A", nil, ""},
		{"introspection is exempt from depth", `{ __type(name: "Q") ` + strings.Repeat("{ ofType ", 30) + "{ name }" + strings.Repeat(" }", 30) + " }", "", nil, ""},
		{"but not from nesting", `{ __type(name: "Q") ` + strings.Repeat("{ ofType ", 40) + "{ name }" + strings.Repeat(" }", 40) + " }", "", nil, model.CodeQueryTooDeep.String()},
		{"NUL in the query text", "{ __typename }\x00", "", nil, model.CodeInvalidParameter.String()},
		{"invalid UTF-8 in the query text", "{ a(s: \"\xff\") }", "", nil, model.CodeInvalidParameter.String()},
		{"NUL through an escape", `{ a(s: "x\u0000") }`, "", nil, model.CodeInvalidParameter.String()},
		{"NUL in a nested input", `{ a(s: {b: [{c: "\u0000"}]}) }`, "", nil, model.CodeInvalidParameter.String()},
		{"NUL in a variable default", `query($s: String = "\u0000") { a(s: $s) }`, "", nil, model.CodeInvalidParameter.String()},
		{"NUL in a directive", `{ a @include(if: "\u0000") }`, "", nil, model.CodeInvalidParameter.String()},
		{"NUL in a fragment's argument", `{ ...F } fragment F on Query { a(s: "\u0000") }`, "", nil, model.CodeInvalidParameter.String()},
		{"an escaped character is fine", `{ a(s: "caf\u00e9") }`, "", nil, ""},
		{"NUL in a variable", `query($s: String) { a(s: $s) }`, "", map[string]any{"s": "a\x00"}, model.CodeInvalidParameter.String()},
		{"NUL deep in a variable", `query($s: In) { a(s: $s) }`, "", map[string]any{"s": map[string]any{"l": []any{json.Number("1"), map[string]any{"x": "\x00"}}}}, model.CodeInvalidParameter.String()},
		{"NUL in a variable's key", `query($s: In) { a(s: $s) }`, "", map[string]any{"s": map[string]any{"\x00": true}}, model.CodeInvalidParameter.String()},
		{"invalid UTF-8 in a variable", `query($s: String) { a(s: $s) }`, "", map[string]any{"s": "\xc3"}, model.CodeInvalidParameter.String()},
		{"NUL in the operation name", `query Q { a }`, "Q\x00", nil, model.CodeInvalidParameter.String()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := prevalidate(c.query, c.op, c.vars)
			if got := codeOf(err); got != c.code {
				t.Fatalf("code %q, want %q (%v)", got, c.code, err)
			}
			if p.steps > stepBound {
				t.Fatalf("%d steps, over the bound %d", p.steps, stepBound)
			}
		})
	}
}

// stepBound is what prevalidate may visit for any input: each pass sees each node of the
// document (at most one per token) once, and the one walk that expands fragments runs only
// under maxSelections.
const stepBound = 6*maxQueryTokens + maxSelections

func TestPrevalidateMemoises(t *testing.T) {
	t.Parallel()
	// 2^24 selections, 24 fragments: the work is the 24 fragments, not the selections.
	p, err := prevalidate(fanOut(24), "", nil)
	if codeOf(err) != model.CodeQueryTooComplex.String() || p.steps > 200 {
		t.Fatalf("%v after %d steps", err, p.steps)
	}
	// The depth walk too: measured on a fan-out that is otherwise accepted.
	doc, perr := parser.ParseQuery(&ast.Source{Input: fanOut(30)})
	if perr != nil {
		t.Fatal(perr)
	}
	steps := 0
	if d := newDocWalker(doc, &steps).depthOf(doc.Operations[0].SelectionSet); d != (depthMeasure{0, 1}) || steps > 200 {
		t.Fatalf("depth %v after %d steps", d, steps)
	}
}

func TestAnonymousOperations(t *testing.T) {
	t.Parallel()
	cases := []struct {
		query, op string
		want      bool
	}{
		{introspection, "", true},
		{`{ __typename }`, "", true},
		{`mutation { __typename }`, "", true},
		{`{ __type(name: "Item") { name } ... on Query { __typename } ...F } fragment F on Query { __schema { queryType { name } } }`, "", true},
		{`{ __typename connectors { total } }`, "", false},
		{`{ ...F } fragment F on Query { items { total } }`, "", false},
		{`{ ... on Query { items { total } } }`, "", false},
		{`{ ...Unknown }`, "", false},
		{`query A { __typename } query B { items { total } }`, "A", true},
		{`query A { __typename } query B { items { total } }`, "B", false},
		{`query A { __typename } query B { items { total } }`, "", false}, // no operation to run
		{`query A { __typename }`, "C", false},
		{`query($id: UUID!) { paymentConsent(id: $id) { canDecide intent { paymentRequest { intents { id } } } } }`, "", true},
		{`mutation($id: UUID!) { decidePaymentIntent(id: $id, authorize: true) { id } __typename }`, "", true},
		{`query($id: UUID!) { paymentConsent(id: $id) { canDecide } paymentIntent(id: $id) { id } }`, "", false},
	}
	for _, c := range cases {
		p, err := prevalidate(c.query, c.op, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got := p.anonymous(); got != c.want {
			t.Errorf("%s (%s): %v, want %v", c.query, c.op, got, c.want)
		}
	}
}

// The token limit is recognised by gqlparser's message: a new wording must fail here.
func TestTokenLimitMessage(t *testing.T) {
	t.Parallel()
	_, err := prevalidate("{"+strings.Repeat("a ", maxQueryTokens)+"}", "", nil)
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeQueryTooComplex || !strings.Contains(e.Message, "tokens") {
		t.Fatalf("%v", err)
	}
}

func FuzzPrevalidate(f *testing.F) {
	for _, seed := range []string{
		introspection,
		"{" + strings.Repeat("__typename ", 20_000) + "}",
		"{" + repeat(3000, "a%d: __typename ") + "}",
		fanOut(24),
		"{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
		"{ ...A ...A } fragment A on Query { ...A }",
		`{ __type(name: "Q") ` + strings.Repeat("{ ofType ", 60) + "{ name }" + strings.Repeat(" }", 60) + " }",
		`query($s: String = "\u0000") { a(s: $s) @skip(if: $b) ... on Q { b } }`,
		`query A { __typename } query B { a }`,
		`{ a(s: """block \u0000""", l: [1, 2.5, {x: $y}], e: ENUM, n: null) }`,
		"{ a(s: \"\xff\") }",
		"",
		"{",
		"fragment F on Q { ...F }",
		"subscription S { a } mutation M { b }",
	} {
		f.Add(seed, "")
	}
	f.Add("query A { __typename } query B { a }", "B")
	f.Fuzz(func(t *testing.T, query, op string) {
		p, err := prevalidate(query, op, map[string]any{"v": query})
		if err == nil {
			_ = p.anonymous()
		}
		if p.steps > stepBound {
			t.Fatalf("%d steps for a %d-byte query, over the bound %d", p.steps, len(query), stepBound)
		}
	})
}

// BenchmarkGraphQLPrevalidate prints the cost of the pre-validation for 1 MiB worst cases,
// as a ratio to decoding the same 1 MiB JSON body (what any request of that size costs),
// and what gqlparser's validation alone costs on a query the pre-validation refuses.
//
//	go test -run '^$' -bench GraphQLPrevalidate -benchtime=1x ./graph/
func BenchmarkGraphQLPrevalidate(b *testing.B) {
	const size = 1 << 20
	fill := func(unit func(i int) string, tail string) string {
		var s strings.Builder
		s.WriteString("{")
		for i := 0; s.Len() < size-len(tail)-64; i++ {
			s.WriteString(unit(i))
		}
		return s.String() + "}" + tail
	}
	fanOutPadded := func() string {
		var s strings.Builder
		s.WriteString("{ ...F0 }\n")
		for i := 0; s.Len() < size-64; i++ {
			fmt.Fprintf(&s, "fragment F%d on Query { ...F%d ...F%d }\n", i, i+1, i+1)
		}
		return s.String()
	}
	cases := []struct{ name, query string }{
		{"repeated fields", fill(func(int) string { return "__typename " }, "")},
		{"aliases", fill(func(i int) string { return fmt.Sprintf("a%d: __typename ", i) }, "")},
		{"fragment fan-out", fanOutPadded()},
		{"nested selections", strings.Repeat("{ a ", size/4)},
		{"one string", `{ __type(name: "` + strings.Repeat("x", size-40) + `") { name } }`},
		{"one comment", "#" + strings.Repeat("x", size-20) + "\n{ __typename }"},
		{"accepted: 2,000 aliases, 2,000 shared pairs", "{" + repeat(1937, "a%d: __typename ") + strings.Repeat("__typename ", 63) + "}"},
		{"accepted: GraphiQL introspection", introspection},
	}
	worst := time.Duration(0)
	for b.Loop() {
		for _, c := range cases {
			body, _ := json.Marshal(map[string]string{"query": c.query})
			base := timeIt(func() {
				var v map[string]any
				_ = json.Unmarshal(body, &v)
			})
			d := timeIt(func() { _, _ = prevalidate(c.query, "", nil) })
			worst = max(worst, d)
			_, err := prevalidate(c.query, "", nil)
			b.Logf("%-45s %8d bytes  prevalidate %9v  = %5.2f× decoding its JSON body (%v)  -> %s", c.name, len(body), d, float64(d)/float64(base), base, cmpOr(codeOf(err), "accepted"))
		}
		schema := generated.NewExecutableSchema(generated.Config{}).Schema()
		q := "{" + strings.Repeat("__typename ", 1000) + "}"
		doc, _ := parser.ParseQuery(&ast.Source{Input: q})
		v := timeIt(func() { validator.ValidateWithRules(schema, doc, rules.NewDefaultRules()) })
		p := timeIt(func() { _, _ = prevalidate(q, "", nil) })
		b.Logf("1,000 repeated fields (11 KB): gqlparser validation %v, prevalidate's refusal %v (%.0f× less)", v, p, float64(v)/float64(p))
	}
	b.ReportMetric(float64(worst.Microseconds()), "worst-µs")
}

// timeIt returns the median of five runs.
func timeIt(f func()) time.Duration {
	var ds [5]time.Duration
	for i := range ds {
		start := time.Now()
		f()
		ds[i] = time.Since(start)
	}
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if ds[j] < ds[i] {
				ds[i], ds[j] = ds[j], ds[i]
			}
		}
	}
	return ds[2]
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestPrevalidateCached checks that a query's cached verdict answers as prevalidate does,
// the second time as the first: per operation name, with the variables checked every time,
// and with refused queries refused again.
func TestPrevalidateCached(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		query, op string
		vars      map[string]any
		refused   bool
		intro     bool
	}{
		{`query A { __typename } query B { items { total } }`, "A", nil, false, true},
		{`query A { __typename } query B { items { total } }`, "B", nil, false, false},
		{`query($n: String) { connectors(name: $n) { total } }`, "", map[string]any{"n": "ok"}, false, false},
		{`query($n: String) { connectors(name: $n) { total } }`, "", map[string]any{"n": "nul\x00"}, true, false},
		{`query($n: String) { connectors(name: $n) { total } }`, "", map[string]any{"n": "ok again"}, false, false},
		{`{ ...F } fragment F on Query { ...F }`, "", nil, true, false},
	}
	for round := range 2 {
		for _, c := range cases {
			_, plain := prevalidate(c.query, c.op, c.vars)
			got, err := prevalidateCached(ctx, c.query, c.op, c.vars)
			if (err != nil) != c.refused || fmt.Sprint(err) != fmt.Sprint(plain) {
				t.Fatalf("round %d, %q (%s) %v: error %v, prevalidate's %v", round, c.query, c.op, c.vars, err, plain)
			}
			if err == nil && got.anonymous != c.intro {
				t.Fatalf("round %d, %q (%s): introspection only %v", round, c.query, c.op, got.anonymous)
			}
		}
	}
}
