package graph

import (
	"context"
	"slices"
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
		return p.list(ctx, fc, len(docs), func(_ []byte, i int) []byte { return docs[i] })
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
		return p.list(ctx, fc, len(conn.Documents), func(_ []byte, i int) []byte { return conn.Documents[i] })
	case "edges":
		// The resolver signs the cursors; an edge is projected as the object {cursor, node},
		// so its selection (aliases, __typename, fragments) follows the same rules as the
		// node's.
		v, err := next(ctx)
		edges, _ := v.([]*model.TransactionEdge)
		if err != nil || len(edges) != len(conn.Documents) {
			return v, err
		}
		return p.list(ctx, fc, len(edges), func(b []byte, i int) []byte {
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
	b := append(listBuffer(size), '[')
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

// storedDocumentField is the field of a stored resource that is its whole document.
const storedDocumentField = "storedDocument"

// A plan is an object type's selection, collected once per list: fragments expanded,
// @skip and @include applied, each field under its response key.
type plan struct {
	typeName string
	fields   []planField
	index    map[string][]int // document key -> positions in fields (a field may be selected under several aliases)
	vals     []jsonscan.Span  // one object's values by position, reused: objects are written one at a time
	subs     [][]byte         // one object's object fields as written, by position, reused likewise
	// seenKeys are the keys of the last object written, in its order, and seenAt their
	// positions: the service writes every document of a type with the same keys in the
	// same order, so the key at a member's place in the last object is mostly its key.
	// jsonscan.MembersGuessing confirms it by comparing (searching for a key's end cost a
	// sixth of the projection), and the positions come without hashing it (the lookups
	// were a fifth).
	seenKeys []string
	seenAt   [][]int
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
	p.subs = make([][]byte, len(p.fields))
	return p
}

// clone is a plan to write with beside p: what was compiled is shared, the scratch is its
// own.
func (p *plan) clone() *plan {
	c := &plan{typeName: p.typeName, fields: slices.Clone(p.fields), index: p.index,
		vals: make([]jsonscan.Span, len(p.fields)), subs: make([][]byte, len(p.fields))}
	for k, f := range c.fields {
		if f.sub != nil {
			c.fields[k].sub = f.sub.clone()
		}
	}
	return c
}

// write writes one object of the plan's type from its stored document, reading the
// document once. It returns what was wrong with the document ("" when nothing): a
// non-null field it lacks (written as null) or a document that is not a JSON object.
func (p *plan) write(b []byte, doc []byte) ([]byte, string) {
	b, end, missing := p.project(b, doc, 0)
	if end < 0 {
		return append(b, "null"...), "not a JSON object"
	}
	return b, missing
}

// project appends the plan's object read from the object at doc[i:] and returns the index
// just past it, or -1 (and nothing appended) when it is not a JSON object. An object field's
// selection is written while its value is read, into the field's own buffer, since the
// query's order is not the document's: each byte of the document is scanned once, where
// finding a nested value's end and then reading its members scanned it once per level.
func (p *plan) project(b []byte, doc []byte, i int) (_ []byte, end int, missing string) {
	vals := p.vals
	clear(vals)
	m := 0
	end = jsonscan.MembersGuessing(doc, i, p.seenKeys, func(key []byte, guessed bool, v int) int {
		var at []int
		if guessed {
			at = p.seenAt[m]
		} else {
			at = p.index[string(key)]
			if m < len(p.seenKeys) {
				p.seenKeys[m], p.seenAt[m] = string(key), at
			} else {
				p.seenKeys, p.seenAt = append(p.seenKeys, string(key)), append(p.seenAt, at)
			}
		}
		m++
		end := -1
		for _, k := range at {
			if p.fields[k].sub == nil {
				continue
			}
			var e int
			var miss string
			p.subs[k], e, miss = p.value(k, p.subs[k][:0], doc, v)
			if e < 0 {
				return -1
			}
			if miss != "" && missing == "" {
				missing = miss
			}
			end = e
		}
		if end < 0 {
			end = jsonscan.ValueEnd(doc, v)
		}
		for _, k := range at {
			vals[k] = jsonscan.Span{Start: v, End: end}
		}
		return end
	})
	if end < 0 {
		return b, -1, ""
	}
	b = append(b, '{')
	for k, f := range p.fields {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.key...)
		b = append(b, `":`...)
		raw := doc[vals[k].Start:vals[k].End]
		switch {
		case f.name == "__typename":
			b = append(b, '"')
			b = append(b, p.typeName...)
			b = append(b, '"')
		case f.whole:
			b = append(b, doc[i:end]...)
		case len(raw) == 0 || string(raw) == "null":
			b = append(b, "null"...)
			if f.nonNull && missing == "" {
				missing = "lacks " + p.typeName + "." + f.name
			}
		case f.sub == nil:
			b = append(b, raw...)
		default:
			b = append(b, p.subs[k]...)
		}
	}
	return append(b, '}'), end, missing
}

// value appends the selection of the object field k read from its value at doc[i:], and
// returns the index just past the value (-1 when the document is not JSON). A null is left
// to the caller; a value of the wrong kind is written as null (an object) or [] (a list)
// and reported.
func (p *plan) value(k int, b []byte, doc []byte, i int) (_ []byte, end int, missing string) {
	f := &p.fields[k]
	switch {
	case i < len(doc) && doc[i] == 'n':
		return b, jsonscan.ValueEnd(doc, i), ""
	case !f.list:
		return f.sub.element(b, doc, i)
	case i >= len(doc) || doc[i] != '[':
		return append(b, "[]"...), jsonscan.ValueEnd(doc, i), p.typeName + "." + f.name + " is not a list"
	}
	b = append(b, '[')
	n := 0
	end = jsonscan.ElementsAt(doc, i, func(e int) int {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		var elemEnd int
		var miss string
		b, elemEnd, miss = f.sub.element(b, doc, e)
		if miss != "" && missing == "" {
			missing = miss
		}
		return elemEnd
	})
	return append(b, ']'), end, missing
}

// element is project for a value that should be an object: another value is written as
// null and reported; -1 only when the document is not JSON.
func (p *plan) element(b []byte, doc []byte, i int) (_ []byte, end int, missing string) {
	if b, end, missing = p.project(b, doc, i); end >= 0 {
		return b, end, missing
	}
	if end = jsonscan.ValueEnd(doc, i); end < 0 {
		return b, -1, ""
	}
	return append(b, "null"...), end, "not a JSON object"
}
