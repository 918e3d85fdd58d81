package db

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"
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
// lists, in row order, as the keyset pages return them.
func docsAndKeys[K any](rows pgx.Rows, scan func(r pgx.CollectableRow, doc *[]byte, key *K) error) ([]json.RawMessage, []K, error) {
	var keys []K
	docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		var doc []byte
		var k K
		if err := scan(r, &doc, &k); err != nil {
			return nil, err
		}
		keys = append(keys, k)
		return doc, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return docs, keys, nil
}
