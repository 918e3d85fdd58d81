package db

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
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

// docsAndKeys reads rows of a stored document and its place in a keyset order into two
// lists, in row order, as the keyset pages return them. targets gives the scan targets of a
// row, the document's and the key's, once: the same targets serve every row, where a scan
// call per row built its argument list and moved its variables to the heap, three
// allocations a row beside the document's own (a 500-row page read 2,000).
func docsAndKeys[K any](rows pgx.Rows, targets func(doc *[]byte, key *K) []any) ([]json.RawMessage, []K, error) {
	var keys []K
	var doc []byte
	var k, zero K
	dest := targets(&doc, &k)
	docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		doc, k = nil, zero
		if err := r.Scan(dest...); err != nil {
			return nil, err
		}
		keys = append(keys, k)
		return doc, nil // a new slice each row: pgx copies a text value out of its buffer
	})
	if err != nil {
		return nil, nil, err
	}
	return docs, keys, nil
}

// rowToDoc reads a row of one stored document. It scans into []byte, not json.RawMessage:
// pgx plans a scan into a named type through reflection (TryFindUnderlyingTypeScanPlan)
// on every query, about 2 µs of a GET /accounts under load, where []byte has a fast path.
func rowToDoc(r pgx.CollectableRow) (json.RawMessage, error) {
	var doc []byte
	err := r.Scan(&doc)
	return doc, err
}

// docsInto reads rows of one stored document as rowToDoc does, but appends each to *buf
// and answers it as a slice of *buf: a caller that writes the documents out at once and
// gives buf to the next request allocates nothing per document, where a scan allocates a
// copy of each (for GET /accounts, a quarter of the bytes a request allocated). The text
// is the column's as the server sent it, as a scan into []byte copies it, so the column
// must be text: another type's raw bytes may be its binary form (jsonb's starts with a
// version byte), which a scan would decode. A nil buf gives rowToDoc, for callers that
// keep the documents. A NULL document reads as nil, as scanned.
//
// A document stays valid while buf is not reused: when an append moves *buf, the
// documents before it keep the old array, which nothing writes again.
func docsInto(buf *[]byte) pgx.RowToFunc[json.RawMessage] {
	if buf == nil {
		return rowToDoc
	}
	return func(r pgx.CollectableRow) (json.RawMessage, error) {
		values, fields := r.RawValues(), r.FieldDescriptions()
		if len(values) != 1 {
			return nil, fmt.Errorf("a document's row has %d columns, not one", len(values))
		}
		if fields[0].DataTypeOID != pgtype.TextOID {
			return nil, fmt.Errorf("a document's column has type %d, not text", fields[0].DataTypeOID)
		}
		if values[0] == nil {
			return nil, nil
		}
		start := len(*buf)
		*buf = append(*buf, values[0]...)
		return (*buf)[start:len(*buf):len(*buf)], nil
	}
}
