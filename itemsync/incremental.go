package itemsync

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// IncrementalOverlap is how far before an item's last read of its transactions the next
// read starts: institutions post late and revise recent rows, and Open Finance lets a
// reader ask for a recent window. A read older than this, or none, reads the whole history.
const IncrementalOverlap = 7 * 24 * time.Hour

// readSince is where the execution's read of transactions may start: the day, in UTC, one
// overlap before the item's last read; nil for the whole history when there was no read,
// when it is older than the overlap, when it was made with other credentials, connector or
// products (another scenario), or when an update asked for a full read (which forgets the
// last read).
func readSince(st *state) *time.Time {
	it := st.it
	if it.TransactionsReadAt == nil || it.TransactionsReadKey == nil || *it.TransactionsReadKey != transactionsReadKey(st) {
		return nil
	}
	last := *it.TransactionsReadAt
	if st.sess.Now.Sub(last) > IncrementalOverlap || last.After(st.sess.Now) {
		return nil
	}
	from := last.Add(-IncrementalOverlap).UTC()
	day := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, time.UTC)
	// Sandbox control promises that every data change reaches the next execution: one not
	// yet collected that a window could miss (a change or removal of a row of any date, an
	// addition dated before the window) makes this read whole.
	for _, c := range st.sess.TransactionChanges {
		if c.AppliedAt == nil && (c.Operation != "ADD" || c.Date == nil || c.Date.Before(day)) {
			return nil
		}
	}
	return &day
}

// transactionsReadKey names what an item's transactions are read with: its connector, its
// credentials (their fingerprint, which the scenario follows) and its products.
func transactionsReadKey(st *state) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(st.it.ConnectorID))
	b.WriteByte('|')
	if st.it.Fingerprint != nil {
		b.WriteString(*st.it.Fingerprint)
	}
	products := make([]string, len(st.it.Products))
	for i, p := range st.it.Products {
		products[i] = string(p)
	}
	slices.Sort(products)
	b.WriteByte('|')
	b.WriteString(strings.Join(products, ","))
	return b.String()
}
