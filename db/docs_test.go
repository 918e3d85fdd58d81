package db_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/testsupport"
)

// Documents read into a shared buffer are the documents a scan reads, NULL included, with
// the buffer too small to start (each append moves it) or large enough; each is capped, so
// appending to one cannot write over the next. A column that is not text is refused: its
// raw bytes are not the document (jsonb's binary form starts with a version byte).
func TestDocsInto(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := db.Open(ctx, testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	read := func(sql string, buf *[]byte) ([]json.RawMessage, error) {
		rows, err := d.Pool.Query(ctx, sql)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, db.DocsInto(buf))
	}
	const three = `SELECT d FROM (VALUES (1, '{"a":1}'), (2, NULL), (3, '{"b":[2,3],"c":"é"}')) v (n, d) ORDER BY n`
	want, err := read(three, nil)
	if err != nil || len(want) != 3 || want[1] != nil {
		t.Fatalf("scanned %q, %v", want, err)
	}
	for _, size := range []int{0, 1, 4096} {
		buf := make([]byte, 0, size)
		got, err := read(three, &buf)
		if err != nil || len(got) != len(want) {
			t.Fatalf("buffer of %d: %q, %v", size, got, err)
		}
		_ = append(got[0], "overwritten"...)
		for i := range want {
			if string(got[i]) != string(want[i]) || (got[i] == nil) != (want[i] == nil) {
				t.Fatalf("buffer of %d: document %d is %q, a scan reads %q", size, i, got[i], want[i])
			}
		}
	}
	for _, sql := range []string{`SELECT '{"a":1}'::jsonb`, `SELECT '{"a":1}'::text, 2`} {
		buf := []byte{}
		if got, err := read(sql, &buf); err == nil {
			t.Fatalf("%s read as %q", sql, got)
		}
	}
}
