package graph_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"testing"

	"github.com/google/uuid"
)

// pageAll reads a connection page by page (first rows each) through the query's after
// variable, and returns the nodes' ids and the number of pages. path names the connection.
func pageAll(t *testing.T, g gql, query, path string, vars map[string]any, first int) (all []string, pages int) {
	t.Helper()
	v := map[string]any{"first": first}
	for k, x := range vars {
		v[k] = x
	}
	for {
		d := g.ok(t, query, v)
		got := ids(t, d, path+".nodes")
		more := at(t, d, path+".pageInfo.hasNextPage") == true
		if len(got) > first || (more && len(got) != first) {
			t.Fatalf("%s page %d: %d nodes of %d, hasNextPage %v", path, pages, len(got), first, more)
		}
		all = append(all, got...)
		pages++
		if !more {
			return all, pages
		}
		v["after"] = str(t, d, path+".pageInfo.endCursor")
	}
}

// The collected products through their root queries and as fields of items and accounts:
// the same rows either way, in their documented order, paged by cursor, and refused to
// other applications.
func TestProducts(t *testing.T) {
	t.Parallel()
	w := newBankWorld(t)
	g, other := w.g, w.other
	item := map[string]any{"id": w.item}

	t.Run("investments and their movements", func(t *testing.T) {
		const q = `query($id: UUID!, $type: String, $first: Int, $after: String) { investments(itemId: $id, type: $type, first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id name type balance } } }`
		d := g.ok(t, q, item)
		n := int(num(t, d, "investments.totalCount"))
		names := []string{}
		for i := range list(t, d, "investments.nodes") {
			names = append(names, str(t, d, fmt.Sprintf("investments.nodes.%d.name", i)))
		}
		if n < 3 || len(names) != n || !sort.StringsAreSorted(names) {
			t.Fatalf("investments %v", names)
		}
		paged, pages := pageAll(t, g, q, "investments", item, 2)
		if !slices.Equal(paged, ids(t, d, "investments.nodes")) || pages != (n+1)/2 {
			t.Fatalf("by twos %v in %d pages, at once %v", paged, pages, ids(t, d, "investments.nodes"))
		}
		fixed := g.ok(t, q, map[string]any{"id": w.item, "type": "FIXED_INCOME"})
		for i := range list(t, fixed, "investments.nodes") {
			if str(t, fixed, fmt.Sprintf("investments.nodes.%d.type", i)) != "FIXED_INCOME" {
				t.Fatalf("type filter %v", fixed)
			}
		}
		if k := num(t, fixed, "investments.totalCount"); k == 0 || int(k) >= n {
			t.Fatalf("%v fixed-income investments of %d", k, n)
		}
		nested := g.ok(t, `query($id: UUID!) { item(id: $id) { investments(first: 500) { totalCount nodes { id } } } }`, item)
		if !slices.Equal(ids(t, nested, "item.investments.nodes"), ids(t, d, "investments.nodes")) {
			t.Fatalf("item.investments %v", nested)
		}

		var inv, movements string
		for _, id := range ids(t, d, "investments.nodes") {
			const mq = `query($id: UUID!, $first: Int, $after: String) { investmentTransactions(investmentId: $id, first: $first, after: $after) {
				totalCount pageInfo { hasNextPage endCursor } nodes { id investmentId date type amount } } }`
			m := g.ok(t, mq, map[string]any{"id": id, "first": 500})
			if len(list(t, m, "investmentTransactions.nodes")) >= 2 {
				inv, movements = id, mq
				var dates []string
				for i := range list(t, m, "investmentTransactions.nodes") {
					dates = append(dates, str(t, m, fmt.Sprintf("investmentTransactions.nodes.%d.date", i)))
					if str(t, m, fmt.Sprintf("investmentTransactions.nodes.%d.investmentId", i)) != id {
						t.Fatalf("a movement of another investment: %v", m)
					}
				}
				if !sort.StringsAreSorted(dates) {
					t.Fatalf("movements not oldest first: %v", dates)
				}
				paged, _ := pageAll(t, g, mq, "investmentTransactions", map[string]any{"id": id}, 1)
				if !slices.Equal(paged, ids(t, m, "investmentTransactions.nodes")) {
					t.Fatalf("movements one by one %v, at once %v", paged, ids(t, m, "investmentTransactions.nodes"))
				}
				one := g.ok(t, `query($id: UUID!) { investment(id: $id) { id name transactions(first: 500) { totalCount nodes { id } } } }`, map[string]any{"id": id})
				if !slices.Equal(ids(t, one, "investment.transactions.nodes"), ids(t, m, "investmentTransactions.nodes")) ||
					num(t, one, "investment.transactions.totalCount") != float64(len(dates)) {
					t.Fatalf("investment.transactions %v", one)
				}
				break
			}
		}
		if inv == "" {
			t.Fatal("no investment with two movements: the movements went untested")
		}
		g.fails(t, `query($id: UUID!) { investment(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "INVESTMENT_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { investment(id: $id) { id } }`, map[string]any{"id": inv}, "INVESTMENT_NOT_FOUND", 404)
		other.fails(t, movements, map[string]any{"id": inv}, "INVESTMENT_NOT_FOUND", 404)
		other.fails(t, q, item, "ITEM_NOT_FOUND", 404)
		g.fails(t, q, map[string]any{"id": uuid.NewString()}, "ITEM_NOT_FOUND", 404)
		g.fails(t, q, map[string]any{"id": w.item, "after": "garbage"}, "INVALID_CURSOR", 400)
		g.fails(t, q, map[string]any{"id": w.item, "first": 0}, "INVALID_PARAMETER", 400)
	})

	t.Run("loans", func(t *testing.T) {
		const q = `query($id: UUID!, $first: Int, $after: String) { loans(itemId: $id, first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } nodes { id itemId productName } } }`
		d := g.ok(t, q, item)
		n := len(list(t, d, "loans.nodes"))
		if n == 0 || num(t, d, "loans.totalCount") != float64(n) || str(t, d, "loans.nodes.0.itemId") != w.item {
			t.Fatalf("loans %v", d)
		}
		if paged, _ := pageAll(t, g, q, "loans", item, 1); !slices.Equal(paged, ids(t, d, "loans.nodes")) {
			t.Fatalf("loans one by one %v", paged)
		}
		nested := g.ok(t, `query($id: UUID!) { item(id: $id) { loans { nodes { id } } } }`, item)
		if !slices.Equal(ids(t, nested, "item.loans.nodes"), ids(t, d, "loans.nodes")) {
			t.Fatalf("item.loans %v", nested)
		}
		id := str(t, d, "loans.nodes.0.id")
		one := g.ok(t, `query($id: UUID!) { loan(id: $id) { id productName } }`, map[string]any{"id": id})
		if at(t, one, "loan.productName") != at(t, d, "loans.nodes.0.productName") {
			t.Fatalf("loan %v", one)
		}
		g.fails(t, `query($id: UUID!) { loan(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "LOAN_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { loan(id: $id) { id } }`, map[string]any{"id": id}, "LOAN_NOT_FOUND", 404)
		other.fails(t, q, item, "ITEM_NOT_FOUND", 404)
	})

	t.Run("identity", func(t *testing.T) {
		const q = `query($item: UUID, $id: UUID) { identity(itemId: $item, id: $id) { id itemId taxNumber fullName } }`
		byItem := g.ok(t, q, map[string]any{"item": w.item})
		id := str(t, byItem, "identity.id")
		if str(t, byItem, "identity.itemId") != w.item || at(t, byItem, "identity.taxNumber") == nil {
			t.Fatalf("identity %v", byItem)
		}
		byID := g.ok(t, q, map[string]any{"id": id})
		nested := g.ok(t, `query($id: UUID!) { item(id: $id) { identity { id fullName } } }`, item)
		if at(t, byID, "identity.fullName") != at(t, byItem, "identity.fullName") || at(t, nested, "item.identity.id") != id {
			t.Fatalf("by id %v, nested %v", byID, nested)
		}
		g.fails(t, q, nil, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"item": w.item, "id": id}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"id": uuid.NewString()}, "IDENTITY_NOT_FOUND", 404)
		other.fails(t, q, map[string]any{"id": id}, "IDENTITY_NOT_FOUND", 404)
		other.fails(t, q, map[string]any{"item": w.item}, "ITEM_NOT_FOUND", 404)
	})

	t.Run("bills of the card", func(t *testing.T) {
		card := w.byType["CREDIT_CARD"]
		const q = `query($id: UUID!, $first: Int, $after: String) { bills(accountId: $id, first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id accountId dueDate totalAmount } } }`
		d := g.ok(t, q, map[string]any{"id": card, "first": 500})
		var due []string
		for i := range list(t, d, "bills.nodes") {
			due = append(due, str(t, d, fmt.Sprintf("bills.nodes.%d.dueDate", i)))
			if str(t, d, fmt.Sprintf("bills.nodes.%d.accountId", i)) != card {
				t.Fatalf("a bill of another account %v", d)
			}
		}
		if len(due) < 2 || num(t, d, "bills.totalCount") != float64(len(due)) || !sort.StringsAreSorted(due) ||
			str(t, d, "bills.edges.0.node.id") != str(t, d, "bills.nodes.0.id") {
			t.Fatalf("bills %v", d)
		}
		paged, pages := pageAll(t, g, q, "bills", map[string]any{"id": card}, 5)
		if !slices.Equal(paged, ids(t, d, "bills.nodes")) || pages != (len(due)+4)/5 {
			t.Fatalf("bills by fives %v in %d pages", paged, pages)
		}
		nested := g.ok(t, `query($id: UUID!) { account(id: $id) { bills(first: 3) { totalCount nodes { id } } } }`, map[string]any{"id": card})
		if !slices.Equal(ids(t, nested, "account.bills.nodes"), ids(t, d, "bills.nodes")[:3]) {
			t.Fatalf("account.bills %v", nested)
		}
		if none := g.ok(t, q, map[string]any{"id": w.byType["CHECKING_ACCOUNT"]}); num(t, none, "bills.totalCount") != 0 {
			t.Fatalf("bills of a bank account %v", none)
		}
		id := str(t, d, "bills.nodes.0.id")
		if one := g.ok(t, `query($id: UUID!) { bill(id: $id) { id totalAmount } }`, map[string]any{"id": id}); at(t, one, "bill.totalAmount") != at(t, d, "bills.nodes.0.totalAmount") {
			t.Fatalf("bill %v", one)
		}
		g.fails(t, `query($id: UUID!) { bill(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "BILL_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { bill(id: $id) { id } }`, map[string]any{"id": id}, "BILL_NOT_FOUND", 404)
		other.fails(t, q, map[string]any{"id": card}, "ACCOUNT_NOT_FOUND", 404)
	})

	t.Run("statements", func(t *testing.T) {
		checking := w.byType["CHECKING_ACCOUNT"]
		const q = `query($id: UUID!, $first: Int, $after: String) { accountStatements(accountId: $id, first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } nodes { id accountId monthYear url } } }`
		d := g.ok(t, q, map[string]any{"id": checking, "first": 500})
		n := len(list(t, d, "accountStatements.nodes"))
		var months []string
		for i := range n {
			my := str(t, d, fmt.Sprintf("accountStatements.nodes.%d.monthYear", i)) // MM/YYYY
			months = append(months, my[3:]+my[:2])
		}
		if n < 2 || num(t, d, "accountStatements.totalCount") != float64(n) || !sort.StringsAreSorted(months) {
			t.Fatalf("statements %v", d)
		}
		if paged, _ := pageAll(t, g, q, "accountStatements", map[string]any{"id": checking}, 4); !slices.Equal(paged, ids(t, d, "accountStatements.nodes")) {
			t.Fatalf("statements by fours %v", paged)
		}
		nested := g.ok(t, `query($id: UUID!) { account(id: $id) { statements { totalCount nodes { id } } } }`, map[string]any{"id": checking})
		if !slices.Equal(ids(t, nested, "account.statements.nodes"), ids(t, d, "accountStatements.nodes")) {
			t.Fatalf("account.statements %v", nested)
		}
		other.fails(t, q, map[string]any{"id": checking}, "ACCOUNT_NOT_FOUND", 404)
	})

	t.Run("consents and resources of an Open Finance item", func(t *testing.T) {
		d := g.ok(t, `mutation { createItem(input: {connectorId: 5, parameters: {cpf: "99911122233"}}) { id } }`, nil)
		id := str(t, d, "createItem.id")
		waiting := waitItem(t, g, id)
		link, _ := at(t, waiting, "userAction.attributes").(map[string]any)["url"].(string)
		if waiting["status"] != "WAITING_USER_ACTION" || link == "" {
			t.Fatalf("Open Finance item %v", waiting)
		}
		resp, err := http.PostForm(link, url.Values{"decision": {"approve"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if final := waitItem(t, g, id); final["status"] != "UPDATED" {
			t.Fatalf("approved item %v", final)
		}
		vars := map[string]any{"id": id}
		c := g.ok(t, `query($id: UUID!) { consents(itemId: $id) { totalCount pageInfo { hasNextPage } nodes { id itemId products createdAt revokedAt } }
			item(id: $id) { consentExpiresAt hasResourcesPendingAuthorization consents { totalCount nodes { id } } } }`, vars)
		if num(t, c, "consents.totalCount") < 1 || str(t, c, "consents.nodes.0.itemId") != id || at(t, c, "consents.nodes.0.revokedAt") != nil ||
			!slices.Equal(ids(t, c, "item.consents.nodes"), ids(t, c, "consents.nodes")) || at(t, c, "item.consentExpiresAt") == nil {
			t.Fatalf("consents %v", c)
		}
		consent := str(t, c, "consents.nodes.0.id")
		if one := g.ok(t, `query($id: UUID!) { consent(id: $id) { id itemId } }`, map[string]any{"id": consent}); at(t, one, "consent.itemId") != id {
			t.Fatalf("consent %v", one)
		}
		if direct := g.ok(t, `query($id: UUID!) { consents(itemId: $id) { totalCount } item(id: $id) { consents { totalCount } } }`, item); num(t, direct, "consents.totalCount") != 0 ||
			num(t, direct, "item.consents.totalCount") != 0 {
			t.Fatalf("consents of a direct connector's item %v", direct)
		}
		g.fails(t, `query($id: UUID!) { consent(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "CONSENT_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { consent(id: $id) { id } }`, map[string]any{"id": consent}, "CONSENT_NOT_FOUND", 404)
		other.fails(t, `query($id: UUID!) { consents(itemId: $id) { totalCount } }`, vars, "ITEM_NOT_FOUND", 404)

		const res = `query($id: UUID!, $s: String) { itemResources(itemId: $id, status: $s) { total totalPages page results { id itemId type status name } } }`
		all := g.ok(t, res, vars)
		pending := g.ok(t, res, map[string]any{"id": id, "s": "PENDING_AUTHORISATION"})
		np := num(t, pending, "itemResources.total")
		if num(t, all, "itemResources.total") <= np || np == 0 || at(t, c, "item.hasResourcesPendingAuthorization") != true {
			t.Fatalf("resources %v, pending %v", all, pending)
		}
		for i := range list(t, pending, "itemResources.results") {
			if str(t, pending, fmt.Sprintf("itemResources.results.%d.status", i)) != "PENDING_AUTHORISATION" {
				t.Fatalf("status filter %v", pending)
			}
		}
		other.fails(t, res, vars, "ITEM_NOT_FOUND", 404)
	})
}
