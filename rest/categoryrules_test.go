package rest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// waitRecategorized waits until every recategorization queued for the application ran.
func waitRecategorized(t *testing.T, env *testsupport.Env, clientID string) {
	t.Helper()
	testsupport.Eventually(t, "the recategorization jobs to complete", 30*time.Second, func() bool {
		var open int
		err := env.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job
			WHERE kind = 'category_rules_recategorize' AND args->>'clientId' = $1 AND state <> 'completed'`, clientID).Scan(&open)
		return err == nil && open == 0
	})
}

type ruleTx struct {
	ID             string                `json:"id"`
	Description    string                `json:"description"`
	CategoryID     *string               `json:"categoryId"`
	Category       *string               `json:"category"`
	CategoryOrigin *model.CategoryOrigin `json:"categoryOrigin"`
}

// updatedIDs lists the transactionIds of the item's transactions/updated events.
func updatedIDs(t *testing.T, env *testsupport.Env, key, item string) []string {
	var ids []string
	for _, ev := range env.Events(t, key, item) {
		if ev["event"] != "transactions/updated" {
			continue
		}
		p := ev["payload"].(map[string]any)
		if p["itemId"] != item || p["accountId"] == nil {
			t.Fatalf("transactions/updated payload lacks itemId or accountId: %v", p)
		}
		for _, id := range p["transactionIds"].([]any) {
			ids = append(ids, id.(string))
		}
	}
	return ids
}

func TestCategoryRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "rules-a"), env.NewClient(t, "rules-b")
	key := a.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	item := it.ID.String()
	account := env.AccountIDs(t, key, item)["CHECKING_ACCOUNT"]
	var page struct{ Results []ruleTx }
	env.Do(t, "GET", "/transactions?pageSize=500&accountId="+account, key, nil).Want(200).JSON(&page)
	if len(page.Results) < 3 {
		t.Fatalf("%d transactions, want at least 3", len(page.Results))
	}
	target, manual := page.Results[0], page.Results[1]
	for _, tx := range page.Results[1:] {
		if model.FoldText(tx.Description) != model.FoldText(target.Description) {
			manual = tx
			break
		}
	}
	if target.CategoryOrigin != nil && target.CategoryOrigin.Type != model.OriginAutomatic {
		t.Fatalf("a collected transaction's origin is %+v, want AUTOMATIC", target.CategoryOrigin)
	}
	env.Do(t, "PATCH", "/transactions/"+manual.ID, key, map[string]any{"categoryId": "20040000"}).Want(200)
	tx := func(id string) ruleTx {
		var out ruleTx
		env.Do(t, "GET", "/transactions/"+id, key, nil).Want(200).JSON(&out)
		return out
	}
	if got := tx(manual.ID); got.CategoryOrigin == nil || got.CategoryOrigin.Type != model.OriginManual {
		t.Fatalf("after PATCH the origin is %+v, want MANUAL", got.CategoryOrigin)
	}

	// An exact rule, written in another case, decides the target; a contains rule on the
	// manually categorized transaction's text does not override the client's choice.
	exact := strings.ToLower(target.Description)
	rule := env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": "  " + exact + " ", "categoryId": "17010000"}).Want(200).Map()
	for _, f := range []string{"id", "description", "categoryId", "category", "clientId", "transactionType", "accountType", "matchType", "createdAt"} {
		if _, ok := rule[f]; !ok {
			t.Errorf("the rule lacks %s: %v", f, rule)
		}
	}
	if rule["matchType"] != "exact" || rule["category"] != "Instituições de caridade" || rule["clientId"] != a.ID || rule["description"] != exact {
		t.Fatalf("rule answered as %v", rule)
	}
	ruleID := rule["id"].(string)
	words := strings.Fields(manual.Description)
	env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": words[0], "categoryId": "17020000", "matchType": "contains"}).Want(200)
	waitRecategorized(t, env, a.ID)
	got := tx(target.ID)
	if got.CategoryID == nil || *got.CategoryID != "17010000" || got.CategoryOrigin == nil || got.CategoryOrigin.Type != model.OriginRule ||
		got.CategoryOrigin.RuleID == nil || got.CategoryOrigin.RuleID.String() != ruleID {
		t.Fatalf("after the rule the target is %+v (origin %+v), want 17010000 from rule %s", got, got.CategoryOrigin, ruleID)
	}
	if got := tx(manual.ID); *got.CategoryID != "20040000" || got.CategoryOrigin.Type != model.OriginManual {
		t.Fatalf("a rule overrode the client's category: %+v", got)
	}
	updated := updatedIDs(t, env, key, item)
	if !slices.Contains(updated, target.ID) || slices.Contains(updated, manual.ID) {
		t.Fatalf("transactions/updated named %v; want the target %s and not the manual %s", updated, target.ID, manual.ID)
	}

	// A new sync keeps the rule's category and reports no change for it.
	before := len(updated)
	env.Do(t, "PATCH", "/items/"+item, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, item, testsupport.Settled)
	if got := tx(target.ID); *got.CategoryID != "17010000" || got.CategoryOrigin.Type != model.OriginRule {
		t.Fatalf("after a sync the target is %+v", got)
	}
	if again := updatedIDs(t, env, key, item); slices.Contains(again[before:], target.ID) {
		t.Fatalf("a sync that changed nothing reported the ruled transaction as updated: %v", again[before:])
	}

	// The errors the issue lists.
	env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": strings.ToUpper(exact), "categoryId": "17010000"}).
		WantError(409, model.CodeCategoryRuleExists.String())
	msg := env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": "x", "categoryId": "99999999"}).
		WantError(400, model.CodeInvalidParameter.String())
	if !strings.Contains(fmt.Sprint(msg["message"]), "99999999") {
		t.Fatalf("an unknown category's message does not name it: %v", msg)
	}
	for _, bad := range []map[string]any{
		{"description": "", "categoryId": "17010000"}, {"description": "   ", "categoryId": "17010000"},
		{"description": strings.Repeat("é", 201), "categoryId": "17010000"}, {"description": strings.Repeat("a", 1<<20), "categoryId": "17010000"},
		{"description": "a\x00b", "categoryId": "17010000"}, {"description": "x", "categoryId": "17010000", "matchType": "regex"},
		{"description": "x", "categoryId": "17010000", "transactionType": "BOTH"}, {"description": "x", "categoryId": "17010000", "accountType": "SAVINGS_ACCOUNT"},
	} {
		r := env.Do(t, "POST", "/categories/rules", key, bad)
		if r.Status != 400 && r.Status != 413 {
			t.Fatalf("%.60v answered %d, want 400", bad, r.Status)
		}
	}
	env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": strings.Repeat("é", 200), "categoryId": "17010000"}).Want(200)
	env.Do(t, "DELETE", "/categories/rules/"+ruleID, b.APIKey, nil).WantError(404, model.CodeCategoryRuleNotFound.String())
	var bRules model.CategoryRulePage
	env.Do(t, "GET", "/categories/rules", b.APIKey, nil).Want(200).JSON(&bRules)
	if bRules.Total != 0 {
		t.Fatalf("B sees %d rules of A", bRules.Total)
	}

	// GraphQL: the list, the transaction's origin, and deleting the rule gives the
	// automatic category back.
	d := env.GraphQL(t, key, `query($id: UUID!) { categoryRules { total results { id matchType } }
		transaction(id: $id) { categoryId categoryOrigin { type ruleId } } }`, map[string]any{"id": target.ID}).OK(t)
	if n := d["categoryRules"].(map[string]any)["total"].(float64); n != 3 {
		t.Fatalf("categoryRules total %v, want 3", n)
	}
	if o := d["transaction"].(map[string]any)["categoryOrigin"].(map[string]any); o["type"] != "RULE" || o["ruleId"] != ruleID {
		t.Fatalf("GraphQL categoryOrigin %v", o)
	}
	del := env.GraphQL(t, key, `mutation($id: UUID!) { deleteCategoryRule(id: $id) { id description } }`, map[string]any{"id": ruleID}).OK(t)
	if del["deleteCategoryRule"].(map[string]any)["id"] != ruleID {
		t.Fatalf("deleteCategoryRule answered %v", del)
	}
	env.GraphQL(t, key, `mutation($id: UUID!) { deleteCategoryRule(id: $id) { id } }`, map[string]any{"id": ruleID}).
		WantCode(t, model.CodeCategoryRuleNotFound.String())
	waitRecategorized(t, env, a.ID)
	got = tx(target.ID)
	if !equalPtr(got.CategoryID, target.CategoryID) || (got.CategoryID != nil && got.CategoryOrigin.Type != model.OriginAutomatic) {
		t.Fatalf("after deleting the rule the target is %+v (origin %+v), want its automatic category %v back", got, got.CategoryOrigin, target.CategoryID)
	}
	env.GraphQL(t, key, `mutation { createCategoryRule(input: {description: "x", categoryId: "nope"}) { id } }`, nil).
		WantCode(t, model.CodeInvalidParameter.String())

	// At most 1,000 rules.
	env.Exec(t, `INSERT INTO category_rules (id, client_id, description, folded, category_id, match_type, rank)
		SELECT gen_random_uuid(), $1, 'R' || g, 'R' || g, '17010000', 'contains', 2 FROM generate_series(1, 998) g`, a.ID)
	env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": "one too many", "categoryId": "17010000"}).
		WantError(400, model.CodeCategoryRuleLimit.String())
}

func equalPtr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
