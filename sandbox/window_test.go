package sandbox

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

// An incremental read's rows are exactly the full history's rows of its window, balances
// and order within the day included.
func TestGenerateSinceKeepsTheWindowsRows(t *testing.T) {
	item := uuid.MustParse("6a0f5d0e-8f52-4bd5-9d4e-2f6e0e0c9a11")
	now := time.Date(2026, 3, 14, 15, 4, 5, 0, time.UTC)
	for _, user := range []string{"user-ok", "user-ok-perf-3", "user-ok-two-checking-accounts"} {
		for _, since := range []time.Time{now.AddDate(0, 0, -8).Truncate(24 * time.Hour), now.AddDate(0, -2, 0).Truncate(24 * time.Hour), now.Truncate(24 * time.Hour)} {
			full := Generate(item, 0, user, 3, now)
			part := GenerateSince(item, 0, user, 3, now, since)
			want := full.Transactions[:0:0]
			for _, tx := range full.Transactions {
				if !tx.Date.Before(since) {
					want = append(want, tx)
				}
			}
			if len(want) == 0 || len(want) == len(full.Transactions) {
				t.Fatalf("%s since %s: window holds %d of %d rows; the case tests nothing", user, since, len(want), len(full.Transactions))
			}
			if !reflect.DeepEqual(want, part.Transactions) {
				t.Fatalf("%s since %s: %d rows, want the full history's %d of the window", user, since, len(part.Transactions), len(want))
			}
			if !reflect.DeepEqual(full.Accounts, part.Accounts) {
				t.Fatalf("%s since %s: accounts differ from the full read's", user, since)
			}
		}
	}
}
