package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// Sandbox control of bills: bills added, changed and removed through REST
// and GraphQL reach the client through the item's next execution and no event; each
// change is listed with when an execution collected it; then hostile callers and input.
func TestSandboxControlBills(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "bills-a"), env.NewClient(t, "bills-b")
	it := sbItem(t, env, a.APIKey, "user-ok")
	id := it.ID.String()
	path := "/sandbox/items/" + id + "/bills"
	var accounts struct{ Results []model.Account }
	env.Do(t, "GET", "/accounts?itemId="+id+"&type=CREDIT", a.APIKey, nil).Want(200).JSON(&accounts)
	if len(accounts.Results) == 0 {
		t.Fatal("the sandbox item has no credit card")
	}
	card := accounts.Results[0]
	var bank struct{ Results []model.Account }
	env.Do(t, "GET", "/accounts?itemId="+id+"&type=BANK", a.APIKey, nil).Want(200).JSON(&bank)
	var bills struct{ Results []model.CreditCardBill }
	env.Do(t, "GET", "/bills?accountId="+card.ID.String(), a.APIKey, nil).Want(200).JSON(&bills)
	if len(bills.Results) < 2 {
		t.Fatalf("card %s has %d bills", card.ID, len(bills.Results))
	}
	changed, removed := bills.Results[0], bills.Results[1]
	listChanges := func() []model.SandboxBillChange {
		var out []model.SandboxBillChange
		env.Do(t, "GET", path, a.APIKey, nil).Want(200).JSON(&out)
		return out
	}
	if got := listChanges(); got == nil || len(got) != 0 {
		t.Fatalf("no changes yet: %+v", got)
	}

	// Add (REST), change (REST), remove (GraphQL), change the addition (GraphQL): nothing
	// shows until the next execution.
	var added []model.SandboxBillChange
	env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": []any{map[string]any{"accountId": card.ID,
		"dueDate": "2026-03-10T00:00:00.000Z", "billClosingDate": "2026-03-01T00:00:00.000Z", "totalAmount": 1234.56, "minimumPaymentAmount": 100}}}).
		Want(200).JSON(&added)
	if len(added) != 1 || added[0].Operation != "ADD" || *added[0].TotalAmount != 1234.56 || added[0].RequestedAt.IsZero() || added[0].AppliedAt != nil {
		t.Fatalf("added %+v", added)
	}
	newID := added[0].BillID.String()
	env.Do(t, "GET", "/bills/"+newID, a.APIKey, nil).WantError(404, model.CodeBillNotFound.String())
	var ch model.SandboxBillChange
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"totalAmount": 777.7}).Want(200).JSON(&ch)
	if ch.Operation != "CHANGE" || *ch.TotalAmount != 777.7 || ch.AccountID != card.ID || ch.DueDate != nil {
		t.Fatalf("change %+v", ch)
	}
	d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $b: UUID!) { sandboxRemoveBill(id: $id, billId: $b) { operation billId appliedAt } }`,
		map[string]any{"id": id, "b": removed.ID}).OK(t)
	if r := d["sandboxRemoveBill"].(map[string]any); r["operation"] != "REMOVE" || r["billId"] != removed.ID.String() || r["appliedAt"] != nil {
		t.Fatalf("GraphQL remove %v", r)
	}
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $b: UUID!) { sandboxChangeBill(id: $id, billId: $b, input: {minimumPaymentAmount: 50}) { operation minimumPaymentAmount totalAmount } }`,
		map[string]any{"id": id, "b": newID}).OK(t)
	if r := d["sandboxChangeBill"].(map[string]any); r["operation"] != "ADD" || r["minimumPaymentAmount"] != float64(50) || r["totalAmount"] != 1234.56 {
		t.Fatalf("GraphQL change of an addition %v", r)
	}
	if got := listChanges(); len(got) != 3 || got[0].AppliedAt != nil || got[1].AppliedAt != nil || got[2].AppliedAt != nil {
		t.Fatalf("pending changes %+v", got)
	}
	env.Do(t, "GET", "/bills/"+removed.ID.String(), a.APIKey, nil).Want(200)
	before := len(env.Events(t, a.APIKey, id))

	sbSync(t, env, a.APIKey, id)
	var got model.CreditCardBill
	env.Do(t, "GET", "/bills/"+newID, a.APIKey, nil).Want(200).JSON(&got)
	if got.AccountID != card.ID || got.TotalAmount != 1234.56 || *got.MinimumPaymentAmount != 50 || got.TotalAmountCurrencyCode != "BRL" ||
		got.BillClosingDate == nil || got.DueDate.Format("2006-01-02") != "2026-03-10" {
		t.Fatalf("added bill %+v", got)
	}
	env.Do(t, "GET", "/bills/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.TotalAmount != 777.7 || !got.DueDate.Equal(changed.DueDate.Time) {
		t.Fatalf("changed bill %+v", got)
	}
	env.Do(t, "GET", "/bills/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeBillNotFound.String())
	// The history: every change carries when the execution that collected it ended.
	applied := func(c model.SandboxBillChange) *model.Time { return c.AppliedAt }
	history := listChanges()
	sbAllMarked(t, history, applied, env.Item(t, a.APIKey, id))
	// No bill event exists in the interface: the sync fired item events only.
	sbNoEventOf(t, env, a.APIKey, id, before, "bill")

	// A later execution keeps the changes and its mark stays the first one's.
	sbSync(t, env, a.APIKey, id)
	env.Do(t, "GET", "/bills/"+newID, a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/bills/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeBillNotFound.String())
	sbMarksKept(t, listChanges(), history, applied)
	// Changed again, the change waits again.
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"dueDate": "2026-04-15T00:00:00.000Z"}).Want(200).JSON(&ch)
	if ch.AppliedAt != nil || *ch.TotalAmount != 777.7 || ch.DueDate == nil {
		t.Fatalf("changed again %+v", ch)
	}

	// A removed bill, and one the item never had, are 404.
	env.Do(t, "PATCH", path+"/"+removed.ID.String(), a.APIKey, map[string]any{"totalAmount": 1}).WantError(404, model.CodeBillNotFound.String())
	env.Do(t, "DELETE", path+"/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeBillNotFound.String())
	env.Do(t, "DELETE", path+"/"+uuid.NewString(), a.APIKey, nil).WantError(404, model.CodeBillNotFound.String())

	// Bad input: refused, nothing recorded.
	good := map[string]any{"accountId": card.ID, "dueDate": "2026-05-10T00:00:00.000Z", "totalAmount": 10}
	with := func(k string, v any) map[string]any { return sbWith(good, k, v) }
	count := len(listChanges())
	for _, bill := range []map[string]any{with("totalAmount", -1), with("totalAmount", 1.234), with("totalAmount", 1e12), with("minimumPaymentAmount", 11),
		with("minimumPaymentAmount", -0.01), with("billClosingDate", "2026-06-01T00:00:00.000Z"), with("dueDate", nil), with("accountId", nil),
		with("accountId", bank.Results[0].ID), with("accountId", it.ID)} {
		env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": []any{good, bill}}).WantError(400, model.CodeInvalidParameter.String())
	}
	env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": []any{good, with("totalAmount", "ten")}}).WantError(400, model.CodeInvalidParameter.String())
	// A date that does not parse is refused by the shared JSON decoder (MALFORMED_JSON today).
	env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": []any{good, with("dueDate", "not a date")}}).Want(400)
	many := make([]any, 25)
	for i := range many {
		many[i] = good
	}
	env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": many}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", path, a.APIKey, map[string]any{"bills": []any{}}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"totalAmount": 0.001}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+newID, a.APIKey, map[string]any{"minimumPaymentAmount": 5000}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+newID, a.APIKey, map[string]any{"dueDate": "2026-02-01T00:00:00.000Z"}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/not-a-uuid", a.APIKey, map[string]any{"totalAmount": 1}).Want(400)
	if n := len(listChanges()); n != count {
		t.Fatalf("refused calls recorded changes: %d, then %d", count, n)
	}

	sbRefuseStrangers(t, env, sbKind{noun: "bills", item: id, owner: a.APIKey, stranger: b.APIKey, good: good,
		target: changed.ID.String(), patch: map[string]any{"totalAmount": 1}})
	env.GraphQL(t, b.APIKey, `mutation($id: UUID!, $b: UUID!) { sandboxRemoveBill(id: $id, billId: $b) { operation } }`,
		map[string]any{"id": id, "b": changed.ID}).WantCode(t, model.CodeItemNotFound.String())
	env.GraphQL(t, b.APIKey, `query($id: UUID!) { sandboxBillChanges(id: $id) { billId } }`, map[string]any{"id": id}).
		WantCode(t, model.CodeItemNotFound.String())
	env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $acc: UUID!) { sandboxAddBills(id: $id, bills: [{accountId: $acc, dueDate: "2026-05-10T00:00:00.000Z", totalAmount: -5}]) { billId } }`,
		map[string]any{"id": id, "acc": card.ID}).WantCode(t, model.CodeInvalidParameter.String())

	// An addition through GraphQL, listed through GraphQL, collected by the next execution.
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $acc: UUID!) { sandboxAddBills(id: $id, bills: [{accountId: $acc,
		dueDate: "2026-06-10T00:00:00.000Z", totalAmount: 0}]) { billId operation totalAmount } }`,
		map[string]any{"id": id, "acc": card.ID}).OK(t)
	viaGQL := d["sandboxAddBills"].([]any)[0].(map[string]any)
	if viaGQL["operation"] != "ADD" || viaGQL["totalAmount"] != float64(0) {
		t.Fatalf("GraphQL addition %v", viaGQL)
	}
	d = env.GraphQL(t, a.APIKey, `query($id: UUID!) { sandboxBillChanges(id: $id) { billId appliedAt } }`, map[string]any{"id": id}).OK(t)
	list := d["sandboxBillChanges"].([]any)
	if last := list[len(list)-1].(map[string]any); len(list) != count+1 || last["billId"] != viaGQL["billId"] || last["appliedAt"] != nil {
		t.Fatalf("GraphQL list %v", list)
	}
	sbSync(t, env, a.APIKey, id)
	env.Do(t, "GET", "/bills/"+viaGQL["billId"].(string), a.APIKey, nil).Want(200).JSON(&got)
	if got.TotalAmount != 0 {
		t.Fatalf("GraphQL addition collected as %+v", got)
	}
	env.Do(t, "GET", "/bills/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.TotalAmount != 777.7 || got.DueDate.Format("2006-01-02") != "2026-04-15" {
		t.Fatalf("a refused call changed the bill, or the second change was lost: %+v", got)
	}
}
