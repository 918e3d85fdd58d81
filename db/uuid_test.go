package db_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
)

// The pool's connections pass google/uuid values in binary, both ways: ids, arrays of ids
// and NULLs arrive as they left, and a parameter costs a couple of allocations, not the
// 19 of pgx's driver.Valuer detour through the string form. Not parallel:
// testing.AllocsPerRun refuses to count beside other tests.
func TestUUIDParameters(t *testing.T) {
	ctx := context.Background()
	d := openStore(t)
	id, list := uuid.New(), []uuid.UUID{uuid.New(), uuid.New()}
	var (
		gotID     uuid.UUID
		gotList   []uuid.UUID
		gotNil    *uuid.UUID
		gotNull   uuid.NullUUID
		gotText   string
		gotAbsent = uuid.NullUUID{UUID: id, Valid: true}
	)
	if err := d.Pool.QueryRow(ctx, `SELECT $1::uuid, $2::uuid[], $3::uuid, $1::uuid, $1::uuid::text, NULL::uuid`, id, list, (*uuid.UUID)(nil)).
		Scan(&gotID, &gotList, &gotNil, &gotNull, &gotText, &gotAbsent); err != nil {
		t.Fatal(err)
	}
	if gotID != id || !slices.Equal(gotList, list) || gotNil != nil || gotNull != (uuid.NullUUID{UUID: id, Valid: true}) || gotText != id.String() || gotAbsent.Valid {
		t.Fatalf("sent %v %v nil, got %v %v %v %v %q %v", id, list, gotID, gotList, gotNil, gotNull, gotText, gotAbsent)
	}

	conn, err := d.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	types := conn.Conn().TypeMap()
	buf := make([]byte, 0, 64)
	var value any = id
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := types.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, value, buf[:0]); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2 {
		t.Fatalf("encoding a uuid.UUID parameter costs %.0f allocations, want at most 2", allocs)
	}
	// A scan is planned per query: a uuid.UUID, being a sql.Scanner, was planned as one
	// and read as text, a string and a parse per value.
	src := id[:]
	var got uuid.UUID
	allocs = testing.AllocsPerRun(100, func() {
		if err := types.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, src, &got); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 0 || got != id {
		t.Fatalf("scanning a binary uuid into a uuid.UUID gave %v in %.0f allocations, want %v in none", got, allocs, id)
	}
	if err := types.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, []byte{1, 2, 3}, &got); err == nil {
		t.Fatal("a uuid of 3 bytes scanned without an error")
	}
}
