package graph_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// bankWorld is one application with one UPDATED sandbox item (a card, a checking and a
// savings account, their transactions and products) and a second application.
type bankWorld struct {
	env      *testsupport.Env
	g, other gql
	item     string
	byType   map[string]string // subtype -> account id
}

func newBankWorld(t *testing.T) *bankWorld {
	env := testsupport.New(t)
	w := &bankWorld{env: env, g: caller(env, env.NewClient(t, "bank-a").APIKey), other: caller(env, env.NewClient(t, "bank-b").APIKey)}
	w.item = str(t, newItem(t, w.g, 0, map[string]any{"user": "user-ok", "password": "password-ok"}), "id")
	w.byType = map[string]string{}
	d := w.g.ok(t, `query($id: UUID!) { accounts(itemId: $id) { results { id subtype } } }`, map[string]any{"id": w.item})
	for i := range list(t, d, "accounts.results") {
		w.byType[str(t, d, fmt.Sprintf("accounts.results.%d.subtype", i))] = str(t, d, fmt.Sprintf("accounts.results.%d.id", i))
	}
	return w
}

// allTransactions reads an account's transactions through GraphQL pages of size first.
func allTransactions(t *testing.T, g gql, account string, first int, filter map[string]any) (rows []map[string]any, pages int) {
	t.Helper()
	const q = `query($a: UUID!, $first: Int, $after: String, $f: TransactionFilterInput) {
		transactions(accountId: $a, first: $first, after: $after, filter: $f) { pageInfo { hasNextPage endCursor } nodes { id date amount type } } }`
	vars := map[string]any{"a": account, "first": first, "f": filter}
	for {
		d := g.ok(t, q, vars)
		nodes := list(t, d, "transactions.nodes")
		more := at(t, d, "transactions.pageInfo.hasNextPage") == true
		if len(nodes) > first || (more && len(nodes) != first) {
			t.Fatalf("page %d of %d rows (first %d, hasNextPage %v)", pages, len(nodes), first, more)
		}
		for _, n := range nodes {
			rows = append(rows, n.(map[string]any))
		}
		pages++
		if !more {
			return rows, pages
		}
		vars["after"] = str(t, d, "transactions.pageInfo.endCursor")
	}
}

func TestAccountsAndTransactions(t *testing.T) {
	t.Parallel()
	w := newBankWorld(t)
	g, env := w.g, w.env
	checking, card := w.byType["CHECKING_ACCOUNT"], w.byType["CREDIT_CARD"]
	if len(w.byType) != 3 || checking == "" || card == "" || w.byType["SAVINGS_ACCOUNT"] == "" {
		t.Fatalf("accounts %v", w.byType)
	}

	t.Run("accounts, by type, as REST sends them", func(t *testing.T) {
		const q = `query($id: UUID!, $type: String) { accounts(itemId: $id, type: $type) { total totalPages page results {
			id itemId type subtype number balance name owner taxNumber currencyCode createdAt
			bankData { transferNumber closingBalance } creditData { brand creditLimit availableCreditLimit } } } }`
		all := g.ok(t, q, map[string]any{"id": w.item})
		if num(t, all, "accounts.total") != 3 || num(t, all, "accounts.totalPages") != 1 || num(t, all, "accounts.page") != 1 ||
			str(t, all, "accounts.results.0.subtype") != "CREDIT_CARD" {
			t.Fatalf("accounts %v", all)
		}
		var rest struct{ Results []map[string]any }
		env.Do(t, "GET", "/accounts?itemId="+w.item, g.key, nil).Want(200).JSON(&rest)
		for i, r := range list(t, all, "accounts.results") {
			want := rest.Results[i]
			for _, f := range []string{"id", "itemId", "type", "subtype", "number", "balance", "name", "owner", "taxNumber", "currencyCode", "createdAt"} {
				if !reflect.DeepEqual(r.(map[string]any)[f], want[f]) {
					t.Fatalf("account %d %s: GraphQL %v, REST %v", i, f, r.(map[string]any)[f], want[f])
				}
			}
		}
		if at(t, all, "accounts.results.0.bankData") != nil || at(t, all, "accounts.results.0.creditData.brand") == nil ||
			at(t, all, "accounts.results.1.creditData") != nil || at(t, all, "accounts.results.1.bankData.transferNumber") == nil {
			t.Fatalf("bankData and creditData %v", all)
		}
		for typ, n := range map[string]int{"BANK": 2, "CREDIT": 1} {
			d := g.ok(t, q, map[string]any{"id": w.item, "type": typ})
			if num(t, d, "accounts.total") != float64(n) {
				t.Fatalf("type %s: %v", typ, d)
			}
			for i := range list(t, d, "accounts.results") {
				if str(t, d, fmt.Sprintf("accounts.results.%d.type", i)) != typ {
					t.Fatalf("type %s: %v", typ, d)
				}
			}
		}
		g.fails(t, q, map[string]any{"id": w.item, "type": "GOLD"}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"id": uuid.NewString()}, "ITEM_NOT_FOUND", 404)
		w.other.fails(t, q, map[string]any{"id": w.item}, "ITEM_NOT_FOUND", 404)
	})

	t.Run("projection of stored accounts keeps aliases, fragments and nulls", func(t *testing.T) {
		d := g.ok(t, `query($id: UUID!) { accounts(itemId: $id) { results { key: id kind: __typename ...money bankData { transferNumber } } } }
			fragment money on Account { balance currencyCode again: balance }`, map[string]any{"id": w.item})
		r := at(t, d, "accounts.results.0").(map[string]any)
		keys := make([]string, 0, len(r))
		for k := range r {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"again", "balance", "bankData", "currencyCode", "key", "kind"}) || r["kind"] != "Account" ||
			r["again"] != r["balance"] || r["key"] != card || r["bankData"] != nil {
			t.Fatalf("projected account %v", r)
		}
	})

	t.Run("one account, and its first page in the same read", func(t *testing.T) {
		const q = `query($id: UUID!) { account(id: $id) { id subtype balance transactions(first: 5) { pageInfo { hasNextPage } nodes { id accountId } } } }`
		d := g.ok(t, q, map[string]any{"id": checking})
		if str(t, d, "account.subtype") != "CHECKING_ACCOUNT" || len(list(t, d, "account.transactions.nodes")) != 5 ||
			at(t, d, "account.transactions.pageInfo.hasNextPage") != true || str(t, d, "account.transactions.nodes.0.accountId") != checking {
			t.Fatalf("account with transactions %v", d)
		}
		root := g.ok(t, `query($id: UUID!) { transactions(accountId: $id, first: 5) { nodes { id } } }`, map[string]any{"id": checking})
		if !slices.Equal(ids(t, d, "account.transactions.nodes"), ids(t, root, "transactions.nodes")) {
			t.Fatalf("account.transactions %v, transactions %v", ids(t, d, "account.transactions.nodes"), ids(t, root, "transactions.nodes"))
		}
		// Only the id and a resolver's field: no document needed, the same page.
		slim := g.ok(t, `query($id: UUID!) { account(id: $id) { id transactions(first: 5) { nodes { id } } } }`, map[string]any{"id": checking})
		if !slices.Equal(ids(t, slim, "account.transactions.nodes"), ids(t, root, "transactions.nodes")) {
			t.Fatalf("slim account %v", slim)
		}
		// A page the batched read refuses is reported by the field, where the query put it.
		r := env.GraphQL(t, g.key, `query($id: UUID!) { account(id: $id) { id transactions(first: 0) { nodes { id } } } }`, map[string]any{"id": checking})
		wantErr(t, r, "INVALID_PARAMETER", 400)
		if fmt.Sprint(r.Errors[0].Path) != "[account transactions]" {
			t.Fatalf("error path %v", r.Errors[0].Path)
		}
		g.fails(t, `{ account(id: "nope") { id } }`, nil, "INVALID_REQUEST", 400)
		g.fails(t, `query($id: UUID!) { account(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "ACCOUNT_NOT_FOUND", 404)
		w.other.fails(t, `query($id: UUID!) { account(id: $id) { id balance } }`, map[string]any{"id": checking}, "ACCOUNT_NOT_FOUND", 404)
	})

	var everything []map[string]any
	t.Run("pages cover the account once, in order", func(t *testing.T) {
		var pages int
		everything, pages = allTransactions(t, g, checking, 500, nil)
		paged, n := allTransactions(t, g, checking, 60, nil)
		if len(everything) < 100 || pages != 1 || n != (len(everything)+59)/60 {
			t.Fatalf("%d rows in %d pages of 500, %d pages of 60", len(everything), pages, n)
		}
		seen := map[string]bool{}
		for i, row := range paged {
			if row["id"] != everything[i]["id"] || seen[row["id"].(string)] {
				t.Fatalf("row %d: %v, want %v once", i, row["id"], everything[i]["id"])
			}
			seen[row["id"].(string)] = true
			if i > 0 && row["date"].(string) < paged[i-1]["date"].(string) {
				t.Fatalf("row %d dated %v before row %d's %v", i, row["date"], i-1, paged[i-1]["date"])
			}
		}
		// An edge's cursor starts the next page right after it.
		d := g.ok(t, `query($id: UUID!) { transactions(accountId: $id, first: 3) { edges { cursor node { id } } } }`, map[string]any{"id": checking})
		next := g.ok(t, `query($id: UUID!, $after: String) { transactions(accountId: $id, first: 2, after: $after) { nodes { id } } }`,
			map[string]any{"id": checking, "after": str(t, d, "transactions.edges.0.cursor")})
		if got := ids(t, next, "transactions.nodes"); !slices.Equal(got, []string{everything[1]["id"].(string), everything[2]["id"].(string)}) {
			t.Fatalf("after the first edge: %v", got)
		}
	})

	t.Run("documents are REST's rows and nodes project them", func(t *testing.T) {
		d := g.ok(t, `query($id: UUID!) { transactions(accountId: $id, first: 500) { documents
			nodes { id when: date amount kind: __typename paymentData { payer { name } } creditCardMetadata { billId } } } }`, map[string]any{"id": checking})
		var rest struct{ Results []map[string]any }
		env.Do(t, "GET", "/v2/transactions?accountId="+checking, g.key, nil).Want(200).JSON(&rest)
		docs := list(t, d, "transactions.documents")
		if len(docs) != len(rest.Results) || len(docs) != len(everything) {
			t.Fatalf("%d documents, %d REST rows, %d read before", len(docs), len(rest.Results), len(everything))
		}
		withPayer := 0
		for i, doc := range docs {
			if !reflect.DeepEqual(doc, any(rest.Results[i])) {
				t.Fatalf("document %d differs from REST's row:\n%v\n%v", i, doc, rest.Results[i])
			}
			n := at(t, d, fmt.Sprintf("transactions.nodes.%d", i)).(map[string]any)
			m := doc.(map[string]any)
			if n["id"] != m["id"] || n["when"] != m["date"] || n["amount"] != m["amount"] || n["kind"] != "Transaction" {
				t.Fatalf("node %d %v from document %v", i, n, m)
			}
			// An object the document lacks is null; a key its object lacks, null too.
			if cc, _ := m["creditCardMetadata"].(map[string]any); cc == nil {
				if n["creditCardMetadata"] != nil {
					t.Fatalf("node %d creditCardMetadata %v from none", i, n["creditCardMetadata"])
				}
			} else if !reflect.DeepEqual(n["creditCardMetadata"], map[string]any{"billId": cc["billId"]}) {
				t.Fatalf("node %d creditCardMetadata %v from %v", i, n["creditCardMetadata"], cc)
			}
			if pd, _ := m["paymentData"].(map[string]any); pd != nil && pd["payer"] != nil {
				withPayer++
				if at(t, n, "paymentData.payer.name") != at(t, m, "paymentData.payer.name") {
					t.Fatalf("node %d payer %v", i, n["paymentData"])
				}
			}
		}
		if withPayer == 0 {
			t.Fatal("no transaction of the checking account has a payer: the nested projection went untested")
		}
	})

	t.Run("filters", func(t *testing.T) {
		from, to := everything[len(everything)/3]["date"].(string), everything[2*len(everything)/3]["date"].(string)
		var want []string
		for _, r := range everything {
			if d := r["date"].(string); d >= from && d <= to {
				want = append(want, r["id"].(string))
			}
		}
		rows, _ := allTransactions(t, g, checking, 50, map[string]any{"dateFrom": from, "dateTo": to})
		var got []string
		for _, r := range rows {
			got = append(got, r["id"].(string))
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("dates %s..%s: %d rows, want %d", from, to, len(got), len(want))
		}
		two := []string{everything[5]["id"].(string), everything[1]["id"].(string)}
		rows, _ = allTransactions(t, g, checking, 50, map[string]any{"ids": two})
		if len(rows) != 2 || rows[0]["id"] != two[1] || rows[1]["id"] != two[0] {
			t.Fatalf("ids filter: %v", rows)
		}
		if rows, _ := allTransactions(t, g, checking, 50, map[string]any{"createdAtFrom": "2100-01-01"}); len(rows) != 0 {
			t.Fatalf("created in 2100: %v", rows)
		}
		const q = `query($id: UUID!, $first: Int, $after: String, $f: TransactionFilterInput) { transactions(accountId: $id, first: $first, after: $after, filter: $f) { nodes { id } } }`
		g.fails(t, q, map[string]any{"id": checking, "f": map[string]any{"dateFrom": to, "dateTo": from}}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"id": checking, "f": map[string]any{"dateFrom": "yesterday"}}, "INVALID_REQUEST", 400)
		for _, first := range []int{0, 501} {
			g.fails(t, q, map[string]any{"id": checking, "first": first}, "INVALID_PARAMETER", 400)
		}
		p := g.ok(t, `query($id: UUID!) { transactions(accountId: $id, first: 2) { pageInfo { endCursor } } }`, map[string]any{"id": checking})
		cursor := str(t, p, "transactions.pageInfo.endCursor")
		tampered := cursor[:5] + string(rune(cursor[5]^1)) + cursor[6:]
		g.fails(t, q, map[string]any{"id": checking, "after": tampered}, "INVALID_CURSOR", 400)
		g.fails(t, q, map[string]any{"id": checking, "after": "garbage"}, "INVALID_CURSOR", 400)
		g.fails(t, q, map[string]any{"id": w.byType["SAVINGS_ACCOUNT"], "after": cursor}, "INVALID_CURSOR", 400)
		g.fails(t, q, map[string]any{"id": checking, "after": cursor, "f": map[string]any{"dateFrom": "2020-01-01"}}, "INVALID_CURSOR", 400)
		g.fails(t, q, map[string]any{"id": uuid.NewString()}, "ACCOUNT_NOT_FOUND", 404)
		w.other.fails(t, q, map[string]any{"id": checking}, "ACCOUNT_NOT_FOUND", 404)

		// Through account(id), a later page is the root's page, with or without the
		// account's own fields beside it, and its errors stay on the transactions field.
		const page = `transactions(first: 3, after: $after) { pageInfo { hasNextPage endCursor } nodes { id date amount } }`
		root, _ := json.Marshal(at(t, g.ok(t, `query($id: UUID!, $after: String) { `+strings.Replace(page, "(", "(accountId: $id, ", 1)+` }`,
			map[string]any{"id": checking, "after": cursor}), "transactions"))
		for _, own := range []string{"", "name "} {
			q := `query($id: UUID!, $after: String) { account(id: $id) { ` + own + page + ` } }`
			got, _ := json.Marshal(at(t, g.ok(t, q, map[string]any{"id": checking, "after": cursor}), "account.transactions"))
			if string(got) != string(root) {
				t.Fatalf("account(id) { %s...after } answered\n%s\nthe root's page\n%s", own, got, root)
			}
			r := g.fails(t, q, map[string]any{"id": checking, "after": tampered}, "INVALID_CURSOR", 400)
			if path := fmt.Sprint(r.Errors[0].Path); path != "[account transactions]" {
				t.Fatalf("account(id) { %s...tampered after }: error at %s", own, path)
			}
			g.fails(t, q, map[string]any{"id": uuid.NewString(), "after": cursor}, "ACCOUNT_NOT_FOUND", 404)
			w.other.fails(t, q, map[string]any{"id": checking, "after": cursor}, "ACCOUNT_NOT_FOUND", 404)
		}
	})

	t.Run("one transaction and its category", func(t *testing.T) {
		id := everything[3]["id"].(string)
		const one = `query($id: UUID!) { transaction(id: $id) { id accountId amount categoryId category } }`
		before := g.ok(t, one, map[string]any{"id": id})
		if str(t, before, "transaction.accountId") != checking || at(t, before, "transaction.amount") != everything[3]["amount"] {
			t.Fatalf("transaction %v", before)
		}
		const set = `mutation($id: UUID!, $c: String!) { updateTransactionCategory(id: $id, categoryId: $c) { id categoryId category } }`
		d := g.ok(t, set, map[string]any{"id": id, "c": "09030000"})
		if at(t, d, "updateTransactionCategory.categoryId") != "09030000" || at(t, d, "updateTransactionCategory.category") != "Groceries" {
			t.Fatalf("after the change %v", d)
		}
		if after := g.ok(t, one, map[string]any{"id": id}); at(t, after, "transaction.categoryId") != "09030000" {
			t.Fatalf("read back %v", after)
		}
		fb := g.ok(t, `{ categoryFeedback { id transactionId previousCategoryId categoryId description createdAt } }`, nil)
		if len(list(t, fb, "categoryFeedback")) != 1 || at(t, fb, "categoryFeedback.0.transactionId") != id ||
			at(t, fb, "categoryFeedback.0.previousCategoryId") != at(t, before, "transaction.categoryId") ||
			at(t, fb, "categoryFeedback.0.categoryId") != "09030000" {
			t.Fatalf("feedback %v", fb)
		}
		if got := list(t, w.other.ok(t, `{ categoryFeedback { id } }`, nil), "categoryFeedback"); len(got) != 0 {
			t.Fatalf("another application's feedback %v", got)
		}
		g.fails(t, set, map[string]any{"id": id, "c": "99999999"}, "INVALID_PARAMETER", 400)
		g.fails(t, set, map[string]any{"id": uuid.NewString(), "c": "09030000"}, "TRANSACTION_NOT_FOUND", 404)
		w.other.fails(t, set, map[string]any{"id": id, "c": "09030000"}, "TRANSACTION_NOT_FOUND", 404)
		g.fails(t, one, map[string]any{"id": uuid.NewString()}, "TRANSACTION_NOT_FOUND", 404)
		w.other.fails(t, one, map[string]any{"id": id}, "TRANSACTION_NOT_FOUND", 404)
	})

	t.Run("spending sums the transactions", func(t *testing.T) {
		const q = `query($a: UUID, $i: UUID, $from: DateTime, $to: DateTime) { spending(accountId: $a, itemId: $i, from: $from, to: $to) {
			byCategory { categoryId category spent received count } byMonth { month spent received count } } }`
		d := g.ok(t, q, map[string]any{"a": checking})
		var spent, received float64
		for _, r := range everything {
			a := r["amount"].(float64)
			if r["type"] == "DEBIT" {
				spent += math.Abs(a)
			} else {
				received += a
			}
		}
		var mSpent, mReceived, mCount float64
		months := list(t, d, "spending.byMonth")
		for i := range months {
			mSpent += num(t, d, fmt.Sprintf("spending.byMonth.%d.spent", i))
			mReceived += num(t, d, fmt.Sprintf("spending.byMonth.%d.received", i))
			mCount += num(t, d, fmt.Sprintf("spending.byMonth.%d.count", i))
			if i > 0 && str(t, d, fmt.Sprintf("spending.byMonth.%d.month", i)) <= str(t, d, fmt.Sprintf("spending.byMonth.%d.month", i-1)) {
				t.Fatalf("months out of order: %v", months)
			}
		}
		if int(mCount) != len(everything) || math.Abs(mSpent-spent) > 0.01 || math.Abs(mReceived-received) > 0.01 {
			t.Fatalf("by month: %v rows, spent %.2f received %.2f; the transactions: %d rows, spent %.2f received %.2f",
				mCount, mSpent, mReceived, len(everything), spent, received)
		}
		cats := list(t, d, "spending.byCategory")
		for i := 1; i < len(cats); i++ {
			if num(t, d, fmt.Sprintf("spending.byCategory.%d.spent", i)) > num(t, d, fmt.Sprintf("spending.byCategory.%d.spent", i-1)) {
				t.Fatalf("categories not by spending: %v", cats)
			}
		}
		// The same sums as fields of the account and the item.
		nested := g.ok(t, `query($a: UUID!, $i: UUID!) { account(id: $a) { spending { byMonth { month count } } }
			item(id: $i) { spending { byMonth { count } } } }`, map[string]any{"a": checking, "i": w.item})
		if len(list(t, nested, "account.spending.byMonth")) != len(months) {
			t.Fatalf("account.spending %v", nested)
		}
		itemTotal := 0.0
		for i := range list(t, nested, "item.spending.byMonth") {
			itemTotal += num(t, nested, fmt.Sprintf("item.spending.byMonth.%d.count", i))
		}
		whole := g.ok(t, q, map[string]any{"i": w.item})
		if itemTotal <= mCount || len(list(t, whole, "spending.byMonth")) != len(list(t, nested, "item.spending.byMonth")) {
			t.Fatalf("item spending counts %v rows, the checking account alone %v", itemTotal, mCount)
		}
		// Dates bound the transaction date.
		from, to := everything[10]["date"].(string), everything[40]["date"].(string)
		inRange := 0
		for _, r := range everything {
			if d := r["date"].(string); d >= from && d <= to {
				inRange++
			}
		}
		bounded := g.ok(t, q, map[string]any{"a": checking, "from": from, "to": to})
		counted := 0.0
		for i := range list(t, bounded, "spending.byMonth") {
			counted += num(t, bounded, fmt.Sprintf("spending.byMonth.%d.count", i))
		}
		if int(counted) != inRange {
			t.Fatalf("spending from %s to %s counts %v rows, want %d", from, to, counted, inRange)
		}
		g.fails(t, q, nil, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"a": checking, "i": w.item}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"a": checking, "from": "2026-02-01", "to": "2026-01-01"}, "INVALID_PARAMETER", 400)
		w.other.fails(t, q, map[string]any{"a": checking}, "ACCOUNT_NOT_FOUND", 404)
		w.other.fails(t, q, map[string]any{"i": w.item}, "ITEM_NOT_FOUND", 404)
	})
}

// Nested lists are read in one statement per level whatever the number of parents, and
// answer what each parent's own query answers.
func TestNestedListsAreBatched(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	g := caller(env, env.NewClient(t, "batched").APIKey)
	const q = `{ itemConnection(first: 10) { nodes { id accounts(type: "BANK") { totalCount pageInfo { endCursor } edges { cursor node { id } }
		nodes { id subtype transactions(first: 3) { pageInfo { hasNextPage } nodes { id accountId } } } } } } }`
	statements := map[int]any{}
	var last map[string]any
	made := 0
	for _, n := range []int{1, 3} {
		for ; made < n; made++ {
			newItem(t, g, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
		}
		r := env.GraphQL(t, g.key, q, nil)
		last = r.OK(t)
		if got := len(list(t, last, "itemConnection.nodes")); got != n {
			t.Fatalf("%d items, want %d", got, n)
		}
		statements[n] = r.Extensions["sqlStatements"]
	}
	if statements[1] == nil || statements[1] != statements[3] {
		t.Fatalf("SQL statements by number of items: %v", statements)
	}
	for i := range list(t, last, "itemConnection.nodes") {
		item := fmt.Sprintf("itemConnection.nodes.%d", i)
		if num(t, last, item+".accounts.totalCount") != 2 || str(t, last, item+".accounts.pageInfo.endCursor") != str(t, last, item+".accounts.edges.1.cursor") {
			t.Fatalf("accounts of item %d: %v", i, at(t, last, item+".accounts"))
		}
		for j := range list(t, last, item+".accounts.nodes") {
			acc := fmt.Sprintf("%s.accounts.nodes.%d", item, j)
			if str(t, last, acc+".subtype") == "CREDIT_CARD" {
				t.Fatalf("type BANK returned a card: %v", at(t, last, acc))
			}
			own := g.ok(t, `query($id: UUID!) { transactions(accountId: $id, first: 3) { nodes { id } } }`, map[string]any{"id": str(t, last, acc+".id")})
			if !slices.Equal(ids(t, last, acc+".transactions.nodes"), ids(t, own, "transactions.nodes")) {
				t.Fatalf("batched page of %s differs from its own", str(t, last, acc+".id"))
			}
		}
	}
	// A Connect Token for the first item reads its accounts without what identifies the holder.
	item := str(t, last, "itemConnection.nodes.0.id")
	tok := str(t, g.ok(t, `mutation($id: UUID) { createConnectToken(itemId: $id) { accessToken } }`, map[string]any{"id": item}), "createConnectToken.accessToken")
	d := caller(env, tok).ok(t, `query($id: UUID!) { accounts(itemId: $id) { total results { id balance owner taxNumber bankData { transferNumber } creditData { brand } } } }`,
		map[string]any{"id": item})
	if num(t, d, "accounts.total") != 3 {
		t.Fatalf("token's accounts %v", d)
	}
	for i := range list(t, d, "accounts.results") {
		r := at(t, d, fmt.Sprintf("accounts.results.%d", i)).(map[string]any)
		if r["balance"] != nil || r["owner"] != nil || r["taxNumber"] != nil || r["bankData"] != nil || r["creditData"] != nil {
			t.Fatalf("a Connect Token reads %v", r)
		}
	}
}
