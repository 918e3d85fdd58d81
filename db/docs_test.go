package db_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/model"
)

// Documents read into memory the list owns are the documents a scan reads, NULL included,
// whatever the scratch buffer held before (a longer list, then a shorter one); each is
// capped, so appending to one cannot write over the next, and a list read later does not
// change an earlier one. A column that is not text is refused: its raw bytes are not the
// document (jsonb's binary form starts with a version byte).
func TestCollectDocs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := openStore(t)
	read := func(sql string) ([]model.JSONDocument, error) {
		rows, err := d.Pool.Query(ctx, sql)
		if err != nil {
			return nil, err
		}
		return db.CollectDocs(rows, 0, nil)
	}
	scan := func(sql string) []json.RawMessage {
		rows, err := d.Pool.Query(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
			var b []byte
			err := r.Scan(&b)
			return b, err
		})
		if err != nil {
			t.Fatal(err)
		}
		return docs
	}
	const three = `SELECT d FROM (VALUES (1, '{"a":1}'), (2, NULL), (3, '{"b":[2,3],"c":"é"}')) v (n, d) ORDER BY n`
	const long = `SELECT repeat('x', 70000) FROM generate_series(1, 2)`
	want := scan(three)
	if len(want) != 3 || want[1] != nil {
		t.Fatalf("scanned %q", want)
	}
	var earlier []model.JSONDocument
	var longLists [][]model.JSONDocument
	// The second long list grows straight to the first one's size.
	for _, sql := range []string{three, long, three, long, three} {
		got, err := read(sql)
		if err != nil {
			t.Fatal(err)
		}
		if sql == long {
			if len(got) != 2 || len(got[0]) != 70000 {
				t.Fatalf("the long list read %d documents", len(got))
			}
			longLists = append(longLists, got) // its array was the scratch: later reads must not write over it
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("read %q, a scan reads %q", got, want)
		}
		_ = append(got[0], "overwritten"...)
		for i := range want {
			if string(got[i]) != string(want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Fatalf("document %d is %q, a scan reads %q", i, got[i], want[i])
			}
		}
		if earlier != nil && string(earlier[2]) != string(want[2]) {
			t.Fatalf("a later read changed an earlier list: %q", earlier[2])
		}
		earlier = got
	}
	for _, l := range longLists {
		if long := strings.Repeat("x", 70000); string(l[0]) != long || string(l[1]) != long {
			t.Fatal("a later read changed a long list")
		}
	}
	for _, sql := range []string{`SELECT '{"a":1}'::jsonb`, `SELECT 2`} {
		if got, err := read(sql); err == nil {
			t.Fatalf("%s read as %q", sql, got)
		}
	}
}
