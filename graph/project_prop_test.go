package graph

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"pgregory.net/rapid"

	"ponte/graph/generated"
	"ponte/jsonscan"
)

// The projection reads a document once, writing each object field's selection while it
// reads the field's value. It must write what a projection that finds each value first and
// then reads it again writes (refWrite, the earlier two-pass form, kept here as the
// reference): the same bytes for any document of the type, in any key order, with nulls,
// missing fields, unknown keys and values of the wrong kind, and for selections with
// aliases, repeated fields, fragments, __typename and storedDocument.
func TestProjectionReadsOnceAsItReadsTwice(t *testing.T) {
	t.Parallel()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	selections := []string{
		`id date description type amount currencyCode category categoryId status operationType balance createdAt merchant { name cnpj }`,
		allFieldsOf(schema, "Transaction", 0),
		`__typename a: id b: id storedDocument m: merchant { __typename name } merchant { cnpj n: name }
			paymentData { payer { documentNumber { value } name } p2: payer { name } receiver { ...party } }
			...tx creditCardMetadata @skip(if: true) { billId }`,
		`order paymentData { boletoMetadata { barcode } reason payer { documentNumber { type type } } }`,
	}
	plans := make([]*plan, len(selections))
	for k, sel := range selections {
		q := `query { account(id: "00000000-0000-0000-0000-000000000000") { transactions { nodes { ` + sel + ` } } } }
			fragment party on PaymentParticipant { name accountNumber }
			fragment tx on Transaction { updatedAt merchant { category } }`
		if k != 2 {
			q = q[:bytes.Index([]byte(q), []byte("fragment"))]
		}
		doc, errs := gqlparser.LoadQuery(schema, q)
		if errs != nil {
			t.Fatalf("selection %d: %v", k, errs)
		}
		oc := &graphql.OperationContext{RawQuery: q, Doc: doc, Operation: doc.Operations[0], Variables: map[string]any{}}
		nodes := findField(doc.Operations[0].SelectionSet, "nodes")
		plans[k] = compile(oc, schema, nodes.SelectionSet, schema.Types["Transaction"])
	}
	clones := make([]*plan, len(plans))
	for k, p := range plans {
		clones[k] = p.clone()
	}
	rapid.Check(t, func(r *rapid.T) {
		doc := genObject(r, schema, schema.Types["Transaction"], 0)
		for k, p := range plans {
			var want bytes.Buffer
			wantMissing := refWrite(p, &want, doc)
			got, missing := p.write(nil, doc)
			if string(got) != want.String() {
				r.Fatalf("selection %d of %s:\nread once  %s\nread twice %s", k, doc, got, want.String())
			}
			if (missing == "") != (wantMissing == "") {
				r.Fatalf("selection %d of %s: reported %q, reference %q", k, doc, missing, wantMissing)
			}
			if !json.Valid(got) {
				r.Fatalf("selection %d of %s: wrote invalid JSON %s", k, doc, got)
			}
			// A copy of the plan (compiledPlans hands out copies) writes the same.
			if again, _ := clones[k].write(nil, doc); string(again) != string(got) {
				r.Fatalf("selection %d of %s: the copy wrote\n%s\nthe plan\n%s", k, doc, again, got)
			}
		}
	})
}

func findField(sel ast.SelectionSet, name string) *ast.Field {
	for _, s := range sel {
		if f, ok := s.(*ast.Field); ok {
			if f.Name == name {
				return f
			}
			if found := findField(f.SelectionSet, name); found != nil {
				return found
			}
		}
	}
	return nil
}

// allFieldsOf is a selection of every field of an object type and of the objects below it.
func allFieldsOf(schema *ast.Schema, typ string, depth int) string {
	var b bytes.Buffer
	for _, f := range schema.Types[typ].Fields {
		if len(f.Arguments) > 0 || f.Name == storedDocumentField || depth > 4 {
			continue
		}
		b.WriteString(f.Name + " ")
		if d := schema.Types[f.Type.Name()]; d.Kind == ast.Object {
			b.WriteString("{ " + allFieldsOf(schema, d.Name, depth+1) + " } ")
		}
	}
	return b.String()
}

// genObject draws a compact JSON document of def: its fields in any order, each present or
// not, null, of its kind or of another, and keys the schema does not know.
func genObject(r *rapid.T, schema *ast.Schema, def *ast.Definition, depth int) []byte {
	fields := rapid.Permutation(def.Fields).Draw(r, "fields")
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	member := func(key string, v []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(strconv.Quote(key) + ":")
		b.Write(v)
	}
	for _, f := range fields {
		if f.Name == storedDocumentField || rapid.IntRange(0, 9).Draw(r, "absent") == 0 {
			continue
		}
		member(f.Name, genValue(r, schema, f.Type, depth))
		if rapid.IntRange(0, 20).Draw(r, "unknown") == 0 {
			member("x"+f.Name, genScalar(r))
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

func genValue(r *rapid.T, schema *ast.Schema, t *ast.Type, depth int) []byte {
	switch rapid.IntRange(0, 9).Draw(r, "kind") {
	case 0:
		return []byte("null")
	case 1:
		return genScalar(r) // of the wrong kind, for an object or a list
	}
	if t.Elem != nil {
		var b bytes.Buffer
		b.WriteByte('[')
		for i := range rapid.IntRange(0, 3).Draw(r, "len") {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(genValue(r, schema, t.Elem, depth))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	if d := schema.Types[t.Name()]; d.Kind == ast.Object && depth < 4 {
		return genObject(r, schema, d, depth+1)
	}
	return genScalar(r)
}

func genScalar(r *rapid.T) []byte {
	switch rapid.IntRange(0, 4).Draw(r, "scalar") {
	case 0:
		return []byte(strconv.Itoa(rapid.IntRange(-1e6, 1e6).Draw(r, "int")))
	case 1:
		return []byte("true")
	case 2:
		return []byte(`[{"a":"}"},[]]`)
	case 3:
		return []byte(`{"x":{"y":"]\""}}`)
	}
	b, _ := json.Marshal(rapid.StringOf(rapid.SampledFrom([]rune{'a', '"', '\\', '{', '}', '[', ']', ',', ':', 'é', ' '})).Draw(r, "string"))
	return b
}

// refWrite is the projection as it was written before it read a document once: each object
// value found first, then read again by its own selection.
func refWrite(p *plan, b *bytes.Buffer, doc []byte) (missing string) {
	vals := make([]jsonscan.Span, len(p.fields))
	if !jsonscan.Members(doc, func(key []byte, v jsonscan.Span) {
		for _, i := range p.index[string(key)] {
			vals[i] = v
		}
	}) {
		b.WriteString("null")
		return "not a JSON object"
	}
	b.WriteByte('{')
	for i, f := range p.fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + f.key + `":`)
		raw := doc[vals[i].Start:vals[i].End]
		switch {
		case f.name == "__typename":
			b.WriteString(`"` + p.typeName + `"`)
		case f.whole:
			b.Write(doc)
		case len(raw) == 0 || string(raw) == "null":
			b.WriteString("null")
			if f.nonNull && missing == "" {
				missing = "lacks " + p.typeName + "." + f.name
			}
		case f.sub == nil:
			b.Write(raw)
		case f.list:
			b.WriteByte('[')
			n := 0
			ok := jsonscan.Elements(raw, func(e jsonscan.Span) {
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				if m := refWrite(f.sub, b, raw[e.Start:e.End]); m != "" && missing == "" {
					missing = m
				}
			})
			b.WriteByte(']')
			if !ok && missing == "" {
				missing = p.typeName + "." + f.name + " is not a list"
			}
		default:
			if m := refWrite(f.sub, b, raw); m != "" && missing == "" {
				missing = m
			}
		}
	}
	b.WriteByte('}')
	return missing
}

// A long list is written in parts at once (projector.list). Its parts, joined in order, must
// be what one part writing every element writes, with the same elements reported, for any
// number of documents and of parts.
func TestListPartsJoinAsOneList(t *testing.T) {
	t.Parallel()
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	q := `query { account(id: "00000000-0000-0000-0000-000000000000") { transactions { nodes { ` +
		allFieldsOf(schema, "Transaction", 0) + ` } } } }`
	doc, errs := gqlparser.LoadQuery(schema, q)
	if errs != nil {
		t.Fatal(errs)
	}
	oc := &graphql.OperationContext{RawQuery: q, Doc: doc, Operation: doc.Operations[0], Variables: map[string]any{}}
	nodes := findField(doc.Operations[0].SelectionSet, "nodes")
	compiled := func() *plan { return compile(oc, schema, nodes.SelectionSet, schema.Types["Transaction"]) }
	inParts := func(docs [][]byte, parts int) (string, []missingField) {
		var b []byte
		var missing []missingField
		for k := range parts {
			n := len(docs)
			part := listPart{lo: k * n / parts, hi: (k + 1) * n / parts, first: k == 0, last: k == parts-1}
			part.write(compiled(), func(_ []byte, i int) []byte { return docs[i] })
			b = append(b, part.buf...)
			missing = append(missing, part.missing...)
		}
		return string(b), missing
	}
	// Found by the property below: more parts than elements leaves parts empty, and the
	// brackets still come once each.
	if got, _ := inParts(nil, 2); got != "[]" {
		t.Fatalf("no elements in 2 parts: %s", got)
	}
	rapid.Check(t, func(r *rapid.T) {
		docs := rapid.SliceOfN(rapid.Custom(func(r *rapid.T) []byte {
			return genObject(r, schema, schema.Types["Transaction"], 0)
		}), 0, 40).Draw(r, "docs")
		parts := rapid.IntRange(1, 5).Draw(r, "parts")
		whole := listPart{hi: len(docs), first: true, last: true}
		whole.write(compiled(), func(_ []byte, i int) []byte { return docs[i] })
		joined, missing := inParts(docs, parts)
		if joined != string(whole.buf) {
			r.Fatalf("%d parts wrote\n%s\none wrote\n%s", parts, joined, whole.buf)
		}
		if !json.Valid([]byte(joined)) {
			r.Fatalf("%d parts wrote invalid JSON %s", parts, joined)
		}
		if !slices.Equal(missing, whole.missing) {
			r.Fatalf("%d parts reported %v, one %v", parts, missing, whole.missing)
		}
	})
}
