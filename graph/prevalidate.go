package graph

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"ponte/model"
)

// Limits checked before gqlparser validates a query. Validation is not linear:
// OverlappingFieldsCanBeMerged compares every pair of fields that share a response name
// (measured here: 500 `__typename` 33 ms, 4,000 1.9 s; 500 conflicting `a: connectors(...)`
// 244 ms), and every walk that expands fragment spreads is exponential in nested fragments.
// So the query is parsed with a token limit and measured first, in work linear in its size.
const (
	// maxQueryTokens bounds parsing, the one step that sees the whole text: a token costs
	// about half a microsecond (an AST node each). GraphiQL's introspection query is 181
	// tokens; 10,000 leaves room for generated queries fifty times that (graphql-java's
	// default is 15,000, GraphQL Armor's 5,000) and keeps a refused 1 MiB query to a few
	// milliseconds.
	maxQueryTokens = 10_000
	// maxSelections bounds the selections (fields, aliases and repeats included, fragment
	// spreads expanded) of all the document's operations and fragments together: what the
	// validator, the complexity walk and the executor visit. GraphiQL's introspection query
	// makes 486.
	maxSelections = 2_000
	// maxSharedNamePairs bounds the pairs of fields that validation must compare because they
	// reach the same response path (a field repeated, or spread from several fragments):
	// 0.3 ms of validation per thousand, 2 ms when they conflict and each pair is an error. Every field of a query written by hand answers
	// under its own name; ten fragments that each select `id` and `__typename` in one
	// selection set make 90 pairs.
	maxSharedNamePairs = 2_000
	// maxAnonymousSelections bounds what a caller without a credential may select (its
	// query may only introspect, or read and answer the payer's pages: publicFields). GraphiQL's introspection query makes 486 selections, the
	// operation's and its fragments', and costs about 60 ms of CPU to answer (280 KB, a
	// goroutine per list element); this allows it and some other tool's longer variant, not
	// several copies of it.
	maxAnonymousSelections = 750
	// maxNesting bounds selection sets inside each other, introspection included (the
	// depth limit maxQueryDepth exempts introspection, whose type references nest deeply).
	maxNesting = 40
)

// preparsed is a query that passed the checks that come before validation.
type preparsed struct {
	doc *ast.QueryDocument
	// op is the operation the request names, nil when there is no such operation (gqlgen
	// reports that after validation).
	op *ast.OperationDefinition
	// selections is the document's size as checkSize counts it.
	selections int64
	// steps counts the nodes the checks visited, so tests can see the work is bounded.
	steps int
}

// prevalidate parses query with the token limit and refuses, before any validation, a query
// whose selections, shared response names, nesting or depth exceed the limits, a fragment
// that spreads itself, and a string that is not valid UTF-8 or holds a NUL byte (PostgreSQL
// cannot store one; bun would send the statement cut short). The work is linear in the
// query's tokens: each fragment is measured once however often it is spread, and the walks
// that do expand fragments run only once the expanded size is known to be under the limit.
// The error is a *model.Error, or a *gqlerror.Error for a query that does not parse; the
// result is never nil, so its steps can be read either way.
func prevalidate(query, operationName string, variables map[string]any) (*preparsed, error) {
	p := &preparsed{}
	return p, p.check(query, operationName, variables)
}

func (p *preparsed) check(query, operationName string, variables map[string]any) error {
	if err := checkText("The query", query); err != nil {
		return err
	}
	if err := checkText("The operation name", operationName); err != nil {
		return err
	}
	if err := checkVariables(variables); err != nil {
		return err
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, maxQueryTokens)
	if err != nil {
		var gqlErr *gqlerror.Error
		if errors.As(err, &gqlErr) && strings.HasPrefix(gqlErr.Message, "exceeded token limit") {
			return tooComplex("The query has more than %d tokens (names, punctuation and values), the limit. Ask for fewer fields and page through the rest.", maxQueryTokens)
		}
		errcode.Set(err, errcode.ParseFailed)
		return err
	}
	p.doc = doc
	w := newDocWalker(doc, &p.steps)
	if p.selections, err = w.checkSize(); err != nil {
		return err
	}
	if err := w.checkValues(); err != nil {
		return err
	}
	p.op = doc.Operations.ForName(operationName)
	if p.op != nil {
		m := w.depthOf(p.op.SelectionSet)
		if m.nesting > maxNesting {
			return tooDeep("The query nests selections %d levels deep; the limit is %d.", m.nesting, maxNesting)
		}
		if m.depth > maxQueryDepth {
			return tooDeep("The query is %d levels deep; the limit is %d. Split it into several queries.", m.depth, maxQueryDepth)
		}
	}
	return nil
}

// publicFields are the root fields a caller without a credential may select besides the
// schema's own description (__schema, __type, __typename): the payer's pages, the PIX
// charges' locations and the sandbox's authorization page, whose unguessable id is the
// capability (payments/caller.go). What they reach below needs a credential again, field
// by field. createApiKey is not one: POST /auth, which calls it, counts each attempt
// against the per-address login limit, and /graphql would not.
var publicFields = map[string]bool{"__schema": true, "__type": true, "__typename": true,
	"paymentPage": true, "paymentConsent": true, "pixCharge": true, "boletoPixCharge": true, "preauthorizationConsent": true,
	"bulkPaymentConsent": true, "startPaymentIntentAsPayer": true, "decidePaymentIntent": true, "payBoletoPixCharge": true,
	"decidePreauthorization": true, "revokePreauthorizationAsPayer": true, "decideBulkPayment": true,
	"sandboxAuthorization": true, "decideSandboxAuthorization": true}

// anonymous reports whether the operation selects nothing but publicFields at its root: all
// a caller without a credential may ask.
func (p *preparsed) anonymous() bool {
	if p.op == nil {
		return false
	}
	w := newDocWalker(p.doc, &p.steps)
	seen := map[string]bool{}
	var only func(ast.SelectionSet) bool
	only = func(set ast.SelectionSet) bool {
		for _, s := range set {
			p.steps++
			switch s := s.(type) {
			case *ast.Field:
				if !publicFields[s.Name] {
					return false
				}
			case *ast.InlineFragment:
				if !only(s.SelectionSet) {
					return false
				}
			case *ast.FragmentSpread:
				f := w.frags[s.Name]
				if f == nil {
					return false
				}
				if !seen[s.Name] {
					seen[s.Name] = true
					if !only(f.SelectionSet) {
						return false
					}
				}
			}
		}
		return true
	}
	return only(p.op.SelectionSet)
}

func tooComplex(format string, args ...any) *model.Error {
	return model.Fail(model.CodeQueryTooComplex, format, args...)
}

func tooDeep(format string, args ...any) *model.Error {
	return model.Fail(model.CodeQueryTooDeep, format, args...)
}

func invalidText(what string) *model.Error {
	return model.Fail(model.CodeInvalidParameter, "%s is not valid UTF-8 text or contains a NUL character.", what)
}

func checkText(what, s string) *model.Error {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return invalidText(what)
	}
	return nil
}

// checkVariables refuses NUL bytes and invalid UTF-8 in variable names and string values at
// any depth; JSON decoding already bounds the nesting.
func checkVariables(vars map[string]any) *model.Error {
	var check func(name string, v any) *model.Error
	check = func(name string, v any) *model.Error {
		switch v := v.(type) {
		case string:
			return checkText("Variable "+name, v)
		case []any:
			for _, e := range v {
				if err := check(name, e); err != nil {
					return err
				}
			}
		case map[string]any:
			for k, e := range v {
				if err := checkText("A field name in variable "+name, k); err != nil {
					return err
				}
				if err := check(name, e); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for k, v := range vars {
		if err := checkText("A variable name", k); err != nil {
			return err
		}
		if err := check("$"+k, v); err != nil {
			return err
		}
	}
	return nil
}

// docWalker measures a parsed document, memoising what it learns about each fragment.
type docWalker struct {
	doc   *ast.QueryDocument
	frags map[string]*ast.FragmentDefinition
	steps *int
	// sizes holds each fragment's expanded selection count; a negative entry marks a
	// fragment being measured, which a spread reaching it again means is a cycle.
	sizes  map[string]int64
	depths map[string]depthMeasure
}

func newDocWalker(doc *ast.QueryDocument, steps *int) *docWalker {
	w := &docWalker{doc: doc, frags: make(map[string]*ast.FragmentDefinition, len(doc.Fragments)), steps: steps,
		sizes: map[string]int64{}, depths: map[string]depthMeasure{}}
	for _, f := range doc.Fragments {
		// The first of duplicate names, as the validator resolves spreads.
		if _, ok := w.frags[f.Name]; !ok {
			w.frags[f.Name] = f
		}
	}
	return w
}

// sizeCap keeps sums of saturated sizes far from overflowing: a fragment spread 2^60 times
// over is as refused as one spread 2^20 times.
const sizeCap = 1 << 40

// checkSize refuses a document whose operations and fragments, fragments expanded, hold more
// than maxSelections selections, or whose fields share response paths in more than
// maxSharedNamePairs pairs, and returns the selections. The validator walks every
// operation and every fragment definition on its own, so each counts.
func (w *docWalker) checkSize() (int64, error) {
	var total int64
	for _, op := range w.doc.Operations {
		n, err := w.size(op.SelectionSet)
		if err != nil {
			return 0, err
		}
		total = min(total+n, sizeCap)
	}
	for _, f := range w.doc.Fragments {
		n, err := w.size(f.SelectionSet)
		if err != nil {
			return 0, err
		}
		total = min(total+n, sizeCap)
	}
	if total > maxSelections {
		return total, tooComplex("The query makes %s selections, counting every alias, repeat and fragment spread, in its operations and fragments; the limit is %d.", countText(total), maxSelections)
	}
	// The document is now known to be small once expanded, so expanding it is cheap.
	pairs := 0
	paths := map[pathKey]int{}
	var counts []int
	var walk func(set ast.SelectionSet, parent int) bool
	walk = func(set ast.SelectionSet, parent int) bool {
		for _, s := range set {
			*w.steps++
			switch s := s.(type) {
			case *ast.Field:
				k := pathKey{parent, s.Alias}
				id, ok := paths[k]
				if !ok {
					id = len(counts)
					paths[k] = id
					counts = append(counts, 0)
				}
				pairs += counts[id]
				counts[id]++
				if pairs > maxSharedNamePairs || !walk(s.SelectionSet, id) {
					return false
				}
			case *ast.InlineFragment:
				if !walk(s.SelectionSet, parent) {
					return false
				}
			case *ast.FragmentSpread:
				if f := w.frags[s.Name]; f != nil && !walk(f.SelectionSet, parent) {
					return false
				}
			}
		}
		return true
	}
	root := -1
	for _, op := range w.doc.Operations {
		root--
		if !walk(op.SelectionSet, root) {
			return total, w.tooManyShared()
		}
	}
	for _, f := range w.doc.Fragments {
		root--
		if !walk(f.SelectionSet, root) {
			return total, w.tooManyShared()
		}
	}
	return total, nil
}

func (w *docWalker) tooManyShared() error {
	return tooComplex("Too many fields share a response name (the same field or alias selected again, directly or through fragments): validation would compare more than %d pairs of them, the limit. Select each field once.", maxSharedNamePairs)
}

func countText(n int64) string {
	if n >= sizeCap {
		return "more than a trillion"
	}
	return fmt.Sprint(n)
}

// pathKey names a response path by its parent path and the response name under it.
type pathKey struct {
	parent int
	name   string
}

func (w *docWalker) size(set ast.SelectionSet) (int64, error) {
	var n int64
	for _, s := range set {
		*w.steps++
		n++
		switch s := s.(type) {
		case *ast.Field:
			c, err := w.size(s.SelectionSet)
			if err != nil {
				return 0, err
			}
			n += c
		case *ast.InlineFragment:
			c, err := w.size(s.SelectionSet)
			if err != nil {
				return 0, err
			}
			n += c
		case *ast.FragmentSpread:
			c, err := w.fragmentSize(s.Name)
			if err != nil {
				return 0, err
			}
			n += c
		}
		n = min(n, sizeCap)
	}
	return n, nil
}

func (w *docWalker) fragmentSize(name string) (int64, error) {
	if n, ok := w.sizes[name]; ok {
		if n < 0 {
			err := gqlerror.Errorf("Fragment %s spreads itself, directly or through other fragments; fragments must not form cycles.", name)
			errcode.Set(err, errcode.ValidationFailed)
			return 0, err
		}
		return n, nil
	}
	f := w.frags[name]
	if f == nil {
		return 0, nil // validation reports the unknown fragment
	}
	w.sizes[name] = -1
	n, err := w.size(f.SelectionSet)
	if err != nil {
		return 0, err
	}
	w.sizes[name] = n
	return n, nil
}

// depthMeasure is a selection set's depth as maxQueryDepth counts it (introspection fields
// left out) and its nesting with them.
type depthMeasure struct{ depth, nesting int }

// depthOf measures once per fragment; checkSize has already refused cycles.
func (w *docWalker) depthOf(set ast.SelectionSet) depthMeasure {
	var m depthMeasure
	for _, s := range set {
		*w.steps++
		var c depthMeasure
		switch s := s.(type) {
		case *ast.Field:
			c = w.depthOf(s.SelectionSet)
			c.nesting++
			if strings.HasPrefix(s.Name, "__") {
				c.depth = 0
			} else {
				c.depth++
			}
		case *ast.InlineFragment:
			c = w.depthOf(s.SelectionSet)
		case *ast.FragmentSpread:
			var ok bool
			if c, ok = w.depths[s.Name]; !ok {
				if f := w.frags[s.Name]; f != nil {
					c = w.depthOf(f.SelectionSet)
				}
				w.depths[s.Name] = c
			}
		}
		m.depth, m.nesting = max(m.depth, c.depth), max(m.nesting, c.nesting)
	}
	return m
}

// checkValues refuses a string literal (escapes decoded) that holds a NUL character, in any
// argument, directive or variable default of the document.
func (w *docWalker) checkValues() error {
	var value func(v *ast.Value) error
	value = func(v *ast.Value) error {
		if v == nil {
			return nil
		}
		*w.steps++
		if (v.Kind == ast.StringValue || v.Kind == ast.BlockValue) && strings.IndexByte(v.Raw, 0) >= 0 {
			return invalidText("A string in the query")
		}
		for _, c := range v.Children {
			if err := value(c.Value); err != nil {
				return err
			}
		}
		return nil
	}
	directives := func(ds ast.DirectiveList) error {
		for _, d := range ds {
			for _, a := range d.Arguments {
				if err := value(a.Value); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var set func(ast.SelectionSet) error
	set = func(ss ast.SelectionSet) error {
		for _, s := range ss {
			*w.steps++
			var err error
			switch s := s.(type) {
			case *ast.Field:
				for _, a := range s.Arguments {
					if err = value(a.Value); err != nil {
						return err
					}
				}
				if err = directives(s.Directives); err == nil {
					err = set(s.SelectionSet)
				}
			case *ast.InlineFragment:
				if err = directives(s.Directives); err == nil {
					err = set(s.SelectionSet)
				}
			case *ast.FragmentSpread:
				err = directives(s.Directives)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, op := range w.doc.Operations {
		for _, v := range op.VariableDefinitions {
			if err := value(v.DefaultValue); err != nil {
				return err
			}
			if err := directives(v.Directives); err != nil {
				return err
			}
		}
		if err := directives(op.Directives); err != nil {
			return err
		}
		if err := set(op.SelectionSet); err != nil {
			return err
		}
	}
	for _, f := range w.doc.Fragments {
		if err := directives(f.Directives); err != nil {
			return err
		}
		if err := set(f.SelectionSet); err != nil {
			return err
		}
	}
	return nil
}
