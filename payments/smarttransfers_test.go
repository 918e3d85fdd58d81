package payments

import (
	"testing"
	"time"

	"ponte/model"
)

func TestPeriodStarts(t *testing.T) {
	for _, c := range []struct {
		now  string // UTC
		want [4]string
	}{
		// 02:30 UTC on a Wednesday is 23:30 of Tuesday in São Paulo: the day and week are Tuesday's.
		{"2026-11-25T02:30:00Z", [4]string{"2026-11-24", "2026-11-23", "2026-11-01", "2026-01-01"}},
		{"2026-11-25T03:00:00Z", [4]string{"2026-11-25", "2026-11-23", "2026-11-01", "2026-01-01"}},
		// A Sunday belongs to the week that began on the Monday before.
		{"2026-11-29T15:00:00Z", [4]string{"2026-11-29", "2026-11-23", "2026-11-01", "2026-01-01"}},
		{"2026-11-30T15:00:00Z", [4]string{"2026-11-30", "2026-11-30", "2026-11-01", "2026-01-01"}},
		// New Year's Eve at 22:00 in São Paulo is already January 1st in UTC.
		{"2027-01-01T01:00:00Z", [4]string{"2026-12-31", "2026-12-28", "2026-12-01", "2026-01-01"}},
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		got := periodStarts(now)
		for i, g := range got {
			if g.Location() != SaoPaulo || g.Hour() != 0 || g.Format("2006-01-02") != c.want[i] {
				t.Errorf("periodStarts(%s)[%d] = %s, want %s 00:00 in São Paulo", c.now, i, g, c.want[i])
			}
		}
	}
}

func TestOverLimit(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	limits := model.SmartTransferLimits{Transaction: f(30), Daily: f(50), Weekly: f(100), Total: f(1000.5)}
	for _, c := range []struct {
		spent       [5]int64
		want        int64
		name        string
		limit, left int64
	}{
		{[5]int64{}, 3000, "", 0, 0},
		{[5]int64{}, 3001, "per-transaction", 3000, 3000},
		{[5]int64{2000, 2000, 2000, 2000, 2000}, 3000, "", 0, 0},
		{[5]int64{2001, 2001, 2001, 2001, 2001}, 3000, "daily", 5000, 2999},
		{[5]int64{0, 9000, 9000, 9000, 9000}, 1001, "weekly", 10000, 1000},
		// No monthly or yearly limit: the total is next.
		{[5]int64{0, 0, 99999, 99999, 100000}, 51, "total", 100050, 50},
		{[5]int64{0, 0, 99999, 99999, 100000}, 50, "", 0, 0},
	} {
		name, limit, left := overLimit(limits, c.spent, c.want)
		if name != c.name || limit != c.limit || left != c.left {
			t.Errorf("overLimit(spent %v, %d) = %q %d %d, want %q %d %d", c.spent, c.want, name, limit, left, c.name, c.limit, c.left)
		}
	}
}

func TestPreauthorizationMoves(t *testing.T) {
	all := []string{PreauthCreated, PreauthCompleted, PreauthRevoked, PreauthRejected, PreauthError}
	allowed := map[[2]string]bool{
		{PreauthCreated, PreauthCompleted}: true, {PreauthCreated, PreauthRejected}: true, {PreauthCreated, PreauthError}: true,
		{PreauthCreated, PreauthRevoked}: true, {PreauthCompleted, PreauthRevoked}: true,
	}
	for _, from := range all {
		for _, to := range all {
			if got := preauthMoveAllowed(from, to); got != allowed[[2]string{from, to}] {
				t.Errorf("%s → %s allowed = %v", from, to, got)
			}
		}
	}
}
