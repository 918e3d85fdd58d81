package graph_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// A page of an account's transactions after any cursor reads the same through
// account(id) as through the root's transactions(accountId), whatever the page size, the
// cursor's position, a date filter, and whether the account's own fields are asked for
// beside it (account(id) then reads the account too).
func TestAccountLaterPagesAreTheRootsPages(t *testing.T) {
	t.Parallel()
	w := newBankWorld(t)
	checking := w.byType["CHECKING_ACCOUNT"]
	rows, _ := allTransactions(t, w.g, checking, 100, nil)
	if len(rows) < 4 {
		t.Fatalf("the checking account has %d transactions", len(rows))
	}
	const sel = `{ pageInfo { hasNextPage endCursor } edges { cursor node { id date amount description } } }`
	rapid.Check(t, func(rt *rapid.T) {
		first := rapid.IntRange(1, 6).Draw(rt, "first")
		skip := rapid.IntRange(1, len(rows)-1).Draw(rt, "skip")
		args := map[string]any{"a": checking, "skip": skip}
		filter, from := "", ""
		if rapid.Bool().Draw(rt, "filtered") {
			args["from"] = rows[rapid.IntRange(0, len(rows)-1).Draw(rt, "from")]["date"]
			filter, from = ", filter: {dateFrom: $from}", ", $from: DateTime"
		}
		// The cursor after row skip-1 of the filtered list, as a client would hold it.
		q0 := `query($a: UUID!, $skip: Int` + from + `) { transactions(accountId: $a, first: $skip` + filter + `) { pageInfo { endCursor } } }`
		d := w.g.ok(t, q0, args)
		cursor, _ := at(t, d, "transactions.pageInfo.endCursor").(string)
		if cursor == "" {
			return // the filter left fewer than skip rows
		}
		vars := map[string]any{"a": checking, "after": cursor}
		if from != "" {
			vars["from"] = args["from"]
		}
		page := fmt.Sprintf(`transactions(first: %d, after: $after%s)`, first, filter)
		root, _ := json.Marshal(at(t, w.g.ok(t, `query($a: UUID!, $after: String`+from+`) { `+
			fmt.Sprintf(`transactions(accountId: $a, first: %d, after: $after%s)`, first, filter)+sel+` }`, vars), "transactions"))
		own := rapid.SampledFrom([]string{"", "id ", "name subtype "}).Draw(rt, "own")
		got, _ := json.Marshal(at(t, w.g.ok(t, `query($a: UUID!, $after: String`+from+`) { account(id: $a) { `+own+page+sel+` } }`, vars),
			"account.transactions"))
		if string(got) != string(root) {
			rt.Fatalf("account(id) { %s%s } answered\n%s\nthe root\n%s", own, page, got, root)
		}
	})
}
