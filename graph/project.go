package graph

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"ponte/jsonscan"
	"ponte/model"
)

// Transactions are stored as their finished API documents, and a page of them is what a
// dashboard reads most. Through gqlgen's generated code a 500-row page cost 5-8 times the
// same page over REST: each document decoded into a struct, then every element marshalled
// in a goroutine of its own and every field through a FieldContext and the middleware
// chain (about 11,500 field resolutions a page). The projection below writes the selected
// fields of each stored document directly, in the query's order and under its aliases,
// with the schema's null rules: the same values REST sends, at a small multiple of its
// cost. It serves TransactionConnection's nodes and edges, and the results of every page of
// stored documents (accounts(itemId), the page-number product lists) when they ask for
// stored fields only (see storedOnly); everything else, and a single transaction or
// account, goes through gqlgen as usual. A field storedDocument is the whole document.
//
// gqlgen supports this shape: a field middleware may return a graphql.Marshaler instead of
// the field's Go value, and the executor writes it in the field's place.

// projector is the field middleware that answers projected lists.
type projector struct{ schema *ast.Schema }

// documentPage is a page whose results are stored documents (model.DocumentPage).
type documentPage interface{ Envelope() *model.DocumentPage }

func (p projector) around(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Parent == nil {
		return next(ctx)
	}
	if page, ok := fc.Parent.Result.(documentPage); ok && fc.Field.Name == "results" {
		typ := fc.Field.Definition.Type.Name()
		if !storedOnly(typ, graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, []string{typ})) {
			return next(ctx) // decoded by the page's results resolver
		}
		docs := page.Envelope().Documents
		return p.list(ctx, fc, len(docs), func(i int) []byte { return docs[i] })
	}
	if fc.Object != "TransactionConnection" {
		return next(ctx)
	}
	conn, ok := fc.Parent.Result.(*model.TransactionConnection)
	if !ok {
		return next(ctx)
	}
	switch fc.Field.Name {
	case "documents":
		// What gqlgen writes of each document (model.JSONDocument) in one buffer, held
		// aside like a projected list rather than grown in gqlgen's.
		return documentList(ctx, conn.Documents, next)
	case "nodes":
		return p.list(ctx, fc, len(conn.Documents), func(i int) []byte { return conn.Documents[i] })
	case "edges":
		// The resolver signs the cursors; an edge is projected as the object {cursor, node},
		// so its selection (aliases, __typename, fragments) follows the same rules as the
		// node's.
		v, err := next(ctx)
		edges, _ := v.([]*model.TransactionEdge)
		if err != nil || len(edges) != len(conn.Documents) {
			return v, err
		}
		var b []byte
		return p.list(ctx, fc, len(edges), func(i int) []byte {
			b = append(b[:0], `{"cursor":`...)
			// Cursors are URL-safe base64, so Go's quoting is JSON's.
			b = strconv.AppendQuote(b, edges[i].Cursor)
			b = append(b, `,"node":`...)
			b = append(b, conn.Documents[i]...)
			return append(b, '}')
		})
	}
	return next(ctx)
}

// documentList writes a list of whole documents, each as it is, or leaves the list to
// gqlgen when one is missing (the non-null error is gqlgen's to report).
func documentList(ctx context.Context, docs []model.JSONDocument, next graphql.Resolver) (any, error) {
	size := 2
	for _, d := range docs {
		if len(d) == 0 {
			return next(ctx)
		}
		size += len(d) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for i, d := range docs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, d...)
	}
	return spliced(ctx, append(b, ']')), nil
}

// storedOnly reports whether a selection of an object type's fields (its own; nested
// objects are parts of the document) needs no resolver. An empty one has nothing to write.
func storedOnly(typ string, fields []graphql.CollectedField) bool {
	resolved := resolvedFields[typ]
	for _, f := range fields {
		if resolved[f.Name] {
			return false
		}
	}
	return len(fields) > 0
}

// list writes the n elements of a list field of stored documents.
func (p projector) list(ctx context.Context, fc *graphql.FieldContext, n int, doc func(i int) []byte) (any, error) {
	def := p.schema.Types[fc.Field.Definition.Type.Name()]
	plan := compile(graphql.GetOperationContext(ctx), p.schema, fc.Field.Selections, def)
	var buf bytes.Buffer
	if n > 0 {
		// A selection makes an element no longer than its document, aliases aside.
		buf.Grow(len(doc(0)) + 2)
	}
	buf.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		d := doc(i)
		if missing := plan.write(&buf, d); missing != "" {
			// The service wrote a document without a field the schema promises: its own
			// failure, logged with the request id like any other.
			graphql.AddError(ctx, internalFailure{fmt.Errorf("stored %s document %d: %s", def.Name, i, missing)})
		}
		if i == 0 && n > 1 {
			// The rest, sized as the first element and a quarter more each: a selection
			// keeps much the same fields of every row, whatever the documents' lengths.
			// Growing as it fills cost a fifth of the projection; sizing by the documents
			// allocated 66 KB for a dashboard's 18 KB of 50 rows, and by the share of the
			// first document kept, 16 KB, then 40 KB when the first was a long one.
			buf.Grow((n-1)*buf.Len()*5/4 + 1)
		}
	}
	buf.WriteByte(']')
	return spliced(ctx, buf.Bytes()), nil
}

// storedDocumentField is the field of a stored resource that is its whole document.
const storedDocumentField = "storedDocument"

// A plan is an object type's selection, collected once per list: fragments expanded,
// @skip and @include applied, each field under its response key.
type plan struct {
	typeName string
	fields   []planField
	index    map[string][]int // document key -> positions in fields (a field may be selected under several aliases)
	vals     []jsonscan.Span  // one object's values by position, reused: objects are written one at a time
	// seen are the keys of the last object written, in its order, with their positions:
	// the service writes every document of a type with the same keys in the same order,
	// so comparing a key with the one at its place in the last object mostly replaces
	// hashing it (the lookups were a fifth of the projection of every field).
	seen []seenKey
}

type seenKey struct {
	key string
	at  []int
}

type planField struct {
	key     string // the response key: the alias, or the name
	name    string
	whole   bool // storedDocument: the document itself
	nonNull bool
	list    bool
	sub     *plan // the selection of an object field; nil for scalars and enums
}

func compile(oc *graphql.OperationContext, schema *ast.Schema, sel ast.SelectionSet, def *ast.Definition) *plan {
	p := &plan{typeName: def.Name, index: map[string][]int{}}
	satisfies := append([]string{def.Name}, def.Interfaces...)
	for _, f := range graphql.CollectFields(oc, sel, satisfies) {
		pf := planField{key: f.Alias, name: f.Name, whole: f.Name == storedDocumentField}
		if f.Name != "__typename" && !pf.whole {
			t := f.Definition.Type
			pf.nonNull = t.NonNull
			if t.Elem != nil {
				pf.list, t = true, t.Elem
			}
			if d := schema.Types[t.Name()]; d.Kind == ast.Object {
				pf.sub = compile(oc, schema, f.Selections, d)
			}
			p.index[f.Name] = append(p.index[f.Name], len(p.fields))
		}
		p.fields = append(p.fields, pf)
	}
	p.vals = make([]jsonscan.Span, len(p.fields))
	return p
}

// write writes one object of the plan's type from its stored document, reading the
// document once. It returns what was wrong with the document ("" when nothing): a
// non-null field it lacks (written as null) or a document that is not a JSON object.
func (p *plan) write(b *bytes.Buffer, doc []byte) (missing string) {
	vals := p.vals
	clear(vals)
	m := 0
	if !jsonscan.Members(doc, func(key []byte, v jsonscan.Span) {
		var at []int
		if m < len(p.seen) && p.seen[m].key == string(key) {
			at = p.seen[m].at
		} else {
			at = p.index[string(key)]
			if m < len(p.seen) {
				p.seen[m] = seenKey{string(key), at}
			} else {
				p.seen = append(p.seen, seenKey{string(key), at})
			}
		}
		m++
		for _, i := range at {
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
		b.WriteByte('"')
		b.WriteString(f.key)
		b.WriteString(`":`)
		raw := doc[vals[i].Start:vals[i].End]
		switch {
		case f.name == "__typename":
			b.WriteByte('"')
			b.WriteString(p.typeName)
			b.WriteByte('"')
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
				if m := f.sub.write(b, raw[e.Start:e.End]); m != "" && missing == "" {
					missing = m
				}
			})
			b.WriteByte(']')
			if !ok && missing == "" {
				missing = p.typeName + "." + f.name + " is not a list"
			}
		default:
			if m := f.sub.write(b, raw); m != "" && missing == "" {
				missing = m
			}
		}
	}
	b.WriteByte('}')
	return missing
}
