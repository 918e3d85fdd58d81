package collected

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// FuzzTransactionCursor checks the after cursor of GET /v2/transactions and the GraphQL
// transaction connections. Properties: a cursor opens, under the same account and
// filters, to the key it was made from; under another account or other filters it is a
// 400 INVALID_CURSOR; a payload the service signed but did not write as a cursor (any
// bytes) is a 400 INVALID_CURSOR or belongs to the account asked for; and any string that
// opens is exactly the cursor the service writes for the key it opens to.
func FuzzTransactionCursor(f *testing.F) {
	r := New(nil, auth.NewService(nil, []byte("fuzz-master-key-0123456789abcdef")), nil, nil)
	acct := uuid.MustParse("3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10")
	tx := uuid.MustParse("9d36b84f-0c4e-4b8e-a0f5-6f1d2b3c4a5e")
	date := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano()
	valid := r.TransactionCursor(model.TransactionFilter{AccountID: acct}, txKey(date, tx[:]))
	f.Add(acct[:], tx[:], date, int64(0), []byte(`{"a":"3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10","f":"x","d":1,"i":"9d36b84f-0c4e-4b8e-a0f5-6f1d2b3c4a5e"}`), valid)
	f.Add([]byte{1}, []byte{2}, int64(-1), int64(1), []byte(`{"a":null,"d":1e99}`), "e30.AAAAAAAAAAAAAAAA")
	f.Add([]byte{}, []byte{}, int64(0), int64(-62135596800000000), []byte(`[]`), "")
	f.Fuzz(func(t *testing.T, account, id []byte, dateNanos, fromNanos int64, payload []byte, cursor string) {
		fl := model.TransactionFilter{AccountID: uuidOf(account)}
		if fromNanos != 0 {
			from := time.Unix(0, fromNanos).UTC()
			fl.DateFrom = &from
		}
		key := txKey(dateNanos, id)
		got, err := r.openTxCursor(r.TransactionCursor(fl, key), fl)
		if err != nil || !got.Date.Equal(key.Date) || got.ID != key.ID {
			t.Fatalf("cursor of %+v under %+v opened to %+v, %v", key, fl, got, err)
		}
		other := fl
		other.AccountID = uuidOf(append([]byte{0xff}, account...))
		if other.AccountID != fl.AccountID {
			wantInvalidCursor(t, r, r.TransactionCursor(fl, key), other)
		}
		other = fl
		other.DateFrom = nil
		if fl.DateFrom != nil {
			wantInvalidCursor(t, r, r.TransactionCursor(fl, key), other)
		}
		if _, err := r.openTxCursor(r.auth.SignCursor(payload), fl); err != nil {
			wantInvalidCursorErr(t, err, string(payload))
		}
		if got, err := r.openTxCursor(cursor, fl); err == nil {
			if want := r.TransactionCursor(fl, *got); want != cursor {
				t.Fatalf("opened %q, which is not the cursor of its key %+v (%q)", cursor, got, want)
			}
		} else {
			wantInvalidCursorErr(t, err, cursor)
		}
	})
}

func wantInvalidCursor(t *testing.T, r *Engine, cursor string, f model.TransactionFilter) {
	t.Helper()
	got, err := r.openTxCursor(cursor, f)
	if err == nil {
		t.Fatalf("cursor %q opened under %+v, which it was not made for: %+v", cursor, f, got)
	}
	wantInvalidCursorErr(t, err, cursor)
}

func wantInvalidCursorErr(t *testing.T, err error, input string) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Status() != 400 || e.Code != model.CodeInvalidCursor {
		t.Fatalf("refusing %q: %v, want a 400 INVALID_CURSOR", input, err)
	}
}

func uuidOf(b []byte) uuid.UUID {
	var u uuid.UUID
	copy(u[:], b)
	return u
}

func txKey(dateNanos int64, id []byte) db.TransactionKey {
	return db.TransactionKey{Date: time.Unix(0, dateNanos).UTC(), ID: uuidOf(id)}
}
