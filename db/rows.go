package db

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"ponte/model"
)

// pageWithTotal reads one page of rows whose last column is count(*) OVER (), and the
// number of all matches; a page past the end has no row to carry it, so countSQL (with
// the same leading arguments) counts instead.
func pageWithTotal[T any](ctx context.Context, q querier, sql, countSQL string, nCountArgs int, args []any, offset int,
	scan func(r pgx.CollectableRow, total *int) (T, error)) ([]T, int, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, err
	}
	total := 0
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) { return scan(r, &total) })
	if err != nil {
		return nil, 0, err
	}
	if len(list) == 0 && offset > 0 {
		err = q.QueryRow(ctx, countSQL, args[:nCountArgs]...).Scan(&total)
	}
	return list, total, err
}

// Lists of stored documents are read into memory the list owns: every document of a list
// in one array, and the list of them, two allocations where a scan allocates a copy of each
// document (for a dashboard's 50 transactions, 50 of its 500). The text is gathered in a
// scratch buffer of this package first, because the list's size is known only at its end.
type docScratch struct {
	text []byte
	ends []int // each document's end in text; -1 for a NULL document
}

var docScratches = sync.Pool{New: func() any { return new(docScratch) }}

// docScratchKept bounds the scratch buffers kept for the next list: one large list does not
// stay held.
const docScratchKept = 64 << 10

// add appends the document column of row r; a NULL document is recorded as none.
func (s *docScratch) add(r pgx.CollectableRow, col int) error {
	values, fields := r.RawValues(), r.FieldDescriptions()
	// The column's raw bytes are the document only for text: another type's may be its
	// binary form (jsonb's starts with a version byte), which a scan would decode.
	if fields[col].DataTypeOID != pgtype.TextOID {
		return fmt.Errorf("a document's column has type %d, not text", fields[col].DataTypeOID)
	}
	if values[col] == nil {
		s.ends = append(s.ends, -1)
		return nil
	}
	if need := len(s.text) + len(values[col]); need > cap(s.text) && need > docScratchKept {
		// Past the kept size, grow straight to the last large list's size (and an eighth):
		// a 500-row page otherwise doubled its way up, allocating twice what it holds.
		if h := int(lastLarge.Load()); h > need {
			grown := make([]byte, len(s.text), h+h/8)
			copy(grown, s.text)
			s.text = grown
		}
	}
	s.text = append(s.text, values[col]...)
	s.ends = append(s.ends, len(s.text))
	return nil
}

// lastLarge is the size of the last list past docScratchKept: lists of one shape (an
// account's 500-row pages) come in runs, so the next large one is likely as large.
var lastLarge atomic.Int64

// docs copies the gathered documents out, into one array the list owns; each is capped, so
// appending to one cannot write over the next. A scratch too large to be kept for the next
// list becomes that array itself: copying a 500-row page (about half a megabyte) into a
// fresh one was a third of what the page allocated.
func (s *docScratch) docs() []model.JSONDocument {
	var text []byte
	if cap(s.text) > docScratchKept {
		text, s.text = s.text, nil
		lastLarge.Store(int64(len(text)))
	} else {
		text = make([]byte, len(s.text))
		copy(text, s.text)
	}
	out := make([]model.JSONDocument, len(s.ends))
	start := 0
	for i, end := range s.ends {
		if end < 0 {
			continue
		}
		out[i] = text[start:end:end]
		start = end
	}
	return out
}

// collectDocs reads rows whose column col is a stored document as text into documents the
// result owns; each is the column's text as the server sent it. scan, when set, reads the
// row's other columns (the document's own position is passed over).
func collectDocs(rows pgx.Rows, col int, scan func(r pgx.CollectableRow) error) ([]model.JSONDocument, error) {
	s := docScratches.Get().(*docScratch)
	s.text, s.ends = s.text[:0], s.ends[:0]
	defer func() {
		if cap(s.text) > docScratchKept {
			s.text = nil
		}
		docScratches.Put(s)
	}()
	_, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (struct{}, error) {
		if len(r.RawValues()) <= col {
			return struct{}{}, fmt.Errorf("a document's row has %d columns", len(r.RawValues()))
		}
		if err := s.add(r, col); err != nil {
			return struct{}{}, err
		}
		if scan != nil {
			return struct{}{}, scan(r)
		}
		return struct{}{}, nil
	})
	if err != nil {
		return nil, err
	}
	return s.docs(), nil
}

// docsAndKeys reads rows of a stored document (the first column, text) and its place in a
// keyset order into two lists, in row order, as the keyset pages return them. targets gives
// the scan targets of the key's columns, once: the same targets serve every row, where a
// scan call per row built its argument list and moved its variables to the heap.
func docsAndKeys[K any](rows pgx.Rows, targets func(key *K) []any) ([]model.JSONDocument, []K, error) {
	var keys []K
	var k, zero K
	dest := append([]any{nil}, targets(&k)...) // nil: the document, read raw
	docs, err := collectDocs(rows, 0, func(r pgx.CollectableRow) error {
		k = zero
		if err := r.Scan(dest...); err != nil {
			return err
		}
		keys = append(keys, k)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return docs, keys, nil
}

// rowToDoc reads a row of one stored document. It scans into []byte, not json.RawMessage:
// pgx plans a scan into a named type through reflection (TryFindUnderlyingTypeScanPlan)
// on every query, where []byte has a fast path.
func rowToDoc(r pgx.CollectableRow) (json.RawMessage, error) {
	var doc []byte
	err := r.Scan(&doc)
	return doc, err
}
