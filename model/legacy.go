package model

import (
	"net/url"
	"time"

	"github.com/google/uuid"
)

// TransactionsSunset is when the page-based GET /transactions stops being served (section
// 8: available until 2026-12-31). It lives here, below both collected (which retires the
// endpoint) and itemsync (whose events link to it), so the two read one date.
var TransactionsSunset = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

// CreatedTransactionsLink is the createdTransactionsLink of a transactions/created event
// made at now: the rows of accountID created from createdAtFrom on. It targets the
// page-based GET /transactions, as spec 4.4 rule 4 and 6.2 say, while that endpoint lives,
// and GET /v2/transactions (the same filters, cursor pages) once it has been retired.
func CreatedTransactionsLink(baseURL string, accountID uuid.UUID, createdAtFrom Time, now time.Time) string {
	q := url.Values{"accountId": {accountID.String()}, "createdAtFrom": {createdAtFrom.String()}}
	path := "/transactions?"
	if !now.Before(TransactionsSunset) {
		path = "/v2/transactions?"
	}
	return baseURL + path + q.Encode()
}
