package graph

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// A page of every field spent a quarter of its answer's time in the projection (0.7 ms of
// about 3 ms for 500 rows) with the other core idle when one reader is asking: PostgreSQL
// has sent the rows and the client waits. A long list is therefore cut into chunks of
// chunkRows elements, each written into its own buffer and sent in order as the pieces of
// one list, and the calling goroutine and one more per other processor take chunks until
// none is left. Waking another goroutine took 60-100 µs on the test machine, so the caller
// starts at once, and a helper that wakes late takes fewer chunks instead of holding the
// list up with a fixed half.
const chunkRows = 64

// list writes the n elements of a list field of stored documents. doc returns element i's
// document; it may build it in scratch, which is its own per chunk.
func (p projector) list(ctx context.Context, fc *graphql.FieldContext, n int, doc func(scratch []byte, i int) []byte) (any, error) {
	def := p.schema.Types[fc.Field.Definition.Type.Name()]
	chunks := max(1, (n+chunkRows-1)/chunkRows)
	out := make([]listPart, chunks)
	for k := range out {
		out[k] = listPart{lo: k * chunkRows, hi: min((k+1)*chunkRows, n), first: k == 0, last: k == chunks-1}
	}
	var next atomic.Int64
	helpers := min(runtime.GOMAXPROCS(0), chunks) - 1
	panics := make([]any, helpers) // each helper's, if it panicked
	// take writes chunks with plan until none is left. A plan holds one object's values
	// while writing it, so each goroutine has its own.
	take := func(plan *plan) {
		for k := int(next.Add(1)) - 1; k < chunks; k = int(next.Add(1)) - 1 {
			out[k].write(plan, doc)
		}
	}
	plans := p.plans(graphql.GetOperationContext(ctx), fc, def)
	var wg sync.WaitGroup
	for h := range helpers {
		wg.Go(func() {
			// A panic here would end the process; it is raised again below, where
			// gqlgen's recovery answers it like any resolver's.
			defer func() { panics[h] = recover() }()
			plan := plans.get()
			defer plans.put(plan)
			take(plan)
		})
	}
	plan := plans.get()
	take(plan)
	plans.put(plan)
	wg.Wait()
	for _, v := range panics {
		if v != nil {
			panic(v)
		}
	}
	pieces := make([][]byte, chunks)
	for k, part := range out {
		for _, m := range part.missing {
			// The service wrote a document without a field the schema promises: its own
			// failure, logged with the request id like any other.
			graphql.AddError(ctx, internalFailure{fmt.Errorf("stored %s document %d: %s", def.Name, m.at, m.what)})
		}
		pieces[k] = part.buf
	}
	return spliced(ctx, pieces...), nil
}

// A listPart is the elements lo to hi-1 of a list, written with the list's opening
// bracket when it is the first part and its closing one when it is the last.
type listPart struct {
	lo, hi      int
	first, last bool
	buf         []byte
	missing     []missingField
}

type missingField struct {
	at   int
	what string
}

func (part *listPart) write(plan *plan, doc func(scratch []byte, i int) []byte) {
	var scratch []byte
	if part.lo < part.hi {
		// A selection makes an element no longer than its document, aliases aside.
		scratch = doc(scratch, part.lo)
		part.buf = listBuffer(len(scratch) + 2)
	}
	if part.first {
		part.buf = append(part.buf, '[')
	}
	for i := part.lo; i < part.hi; i++ {
		if i > 0 {
			part.buf = append(part.buf, ',')
		}
		start := len(part.buf)
		scratch = doc(scratch, i)
		var missing string
		if part.buf, missing = plan.write(part.buf, scratch); missing != "" {
			part.missing = append(part.missing, missingField{i, missing})
		}
		if i == part.lo && part.hi-part.lo > 1 {
			// The rest, sized as the first element and a quarter more each: a selection
			// keeps much the same fields of every row, whatever the documents' lengths.
			// Growing as it fills cost a fifth of the projection; sizing by the documents
			// allocated 66 KB for a dashboard's 18 KB of 50 rows, and by the share of the
			// first document kept, 16 KB, then 40 KB when the first was a long one.
			part.buf = growList(part.buf, (part.hi-part.lo-1)*(len(part.buf)-start)*5/4+2)
		}
	}
	if part.last {
		part.buf = append(part.buf, ']')
	}
}

// Compiling a list's plan (graphql.CollectFields at every level of the selection) took
// 20-60 µs a plan, as much as projecting a chunk. A dashboard sends the same queries over
// and over, parsed once (queryCache), so the plans of a query's list fields are kept with
// the parsed field they belong to. A plan depends on the query alone unless a @skip or
// @include reads a variable: a query with any directive, or too long for queryCache, is
// compiled for each request. The key holds the field, which keeps its document alive, so
// the cache is bounded like queryCache.
var compiledPlans, _ = lru.New[planKey, *planTemplate](cachedQueries)

type planKey struct {
	field *ast.Field
	typ   string // a fragment's field may list different types under different parents
}

// A planTemplate is a list field's compiled plan, and copies of it ready to write with.
type planTemplate struct {
	// selections are the merged selections the plan was compiled from: a field in a
	// fragment may be merged with different siblings where the fragment is spread.
	selections ast.SelectionSet
	compiled   *plan
	free       sync.Pool // of *plan
}

// planSource hands out plans for one list.
type planSource struct {
	t       *planTemplate // nil: compiled for this request
	compile func() *plan
}

func (p projector) plans(oc *graphql.OperationContext, fc *graphql.FieldContext, def *ast.Definition) planSource {
	compile := func() *plan { return compile(oc, p.schema, fc.Field.Selections, def) }
	if len(oc.RawQuery) > maxCachedQuery || strings.Contains(oc.RawQuery, "@") || fc.Field.Field == nil {
		return planSource{compile: compile}
	}
	key := planKey{fc.Field.Field, def.Name}
	t, ok := compiledPlans.Get(key)
	if !ok {
		t = &planTemplate{selections: slices.Clone(fc.Field.Selections), compiled: compile()}
		compiledPlans.Add(key, t)
	}
	if !slices.Equal(t.selections, fc.Field.Selections) {
		return planSource{compile: compile}
	}
	return planSource{t: t}
}

func (s planSource) get() *plan {
	if s.t == nil {
		return s.compile()
	}
	if p, _ := s.t.free.Get().(*plan); p != nil {
		return p
	}
	return s.t.compiled.clone()
}

func (s planSource) put(p *plan) {
	if s.t != nil {
		s.t.free.Put(p)
	}
}
