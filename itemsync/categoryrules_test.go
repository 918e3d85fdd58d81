package itemsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"pgregory.net/rapid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// ruleWorld is an application with one settled sandbox item whose transactions a test
// replaces: its accounts give the subtypes rules narrow by.
type ruleWorld struct {
	env      *testsupport.Env
	app      *app
	item     uuid.UUID
	accounts map[uuid.UUID]string // id -> subtype
}

// sibling adds an item of the same application beside w's, with one account copied from
// one of w's (from): a second item for tests of what one item's rows may touch.
func (w *ruleWorld) sibling(t testing.TB) (item, account, from uuid.UUID) {
	t.Helper()
	for id := range w.accounts {
		from = id
		break
	}
	item, account = uuid.New(), uuid.New()
	w.env.Exec(t, `INSERT INTO items SELECT (jsonb_populate_record(NULL::items, to_jsonb(i) || jsonb_build_object('id', $2::uuid))).*
		FROM items i WHERE i.id = $1`, w.item, item)
	w.env.Exec(t, `INSERT INTO accounts SELECT (jsonb_populate_record(NULL::accounts, to_jsonb(a) || jsonb_build_object('id', $2::uuid, 'item_id', $3::uuid))).*
		FROM accounts a WHERE a.id = $1`, from, account, item)
	return item, account, from
}

func newRuleWorld(t testing.TB, env *testsupport.Env, name string) *ruleWorld {
	key := env.NewClient(t, name).APIKey
	p, err := env.Auth.Verify(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	a := &app{env: env, id: p.ClientID, ctx: auth.WithResult(context.Background(), p, nil), key: key}
	it, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok")})
	if err != nil {
		t.Fatal(err)
	}
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	w := &ruleWorld{env: env, app: a, item: it.ID, accounts: map[uuid.UUID]string{}}
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT id, subtype FROM accounts WHERE item_id = $1`, it.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		var sub string
		if err := rows.Scan(&id, &sub); err != nil {
			t.Fatal(err)
		}
		w.accounts[id] = sub
	}
	return w
}

var ruleWords = []string{"PADARIA", "padaria", "Pão", "PAO", "de", "Zé", "ZE", "mercado", "posto", "Ç", "c"}

func ruleText(t *rapid.T, label string, max int) string {
	words := rapid.SliceOfN(rapid.SampledFrom(ruleWords), 1, max).Draw(t, label)
	return strings.Join(words, rapid.SampledFrom([]string{" ", "  "}).Draw(t, label+"-sep"))
}

// TestCategoryRulePrecedence: for random rule sets and transactions, the category the
// recategorization stores is the one the precedence computed in Go (model.BestRule) gives:
// the client's manual choice, else the most specific matching rule, else the automatic
// category; and the document's categoryId and categoryOrigin agree with the columns.
func TestCategoryRulePrecedence(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	w := newRuleWorld(t, env, "rule-precedence")
	ctx := context.Background()
	var accountIDs []uuid.UUID
	for id := range w.accounts {
		accountIDs = append(accountIDs, id)
	}
	cats := []string{"17010000", "17020000", "09040000", "09030000"}
	rapid.Check(t, func(rt *rapid.T) {
		env.Exec(t, `DELETE FROM transactions WHERE item_id = $1`, w.item)
		env.Exec(t, `DELETE FROM category_rules WHERE client_id = $1`, w.app.id)
		for i, n := 0, rapid.IntRange(0, 8).Draw(rt, "rules"); i < n; i++ {
			desc := ruleText(rt, "ruleText", 3)
			var txType, accType *string
			if rapid.Bool().Draw(rt, "narrowType") {
				s := rapid.SampledFrom([]string{"DEBIT", "CREDIT"}).Draw(rt, "txType")
				txType = &s
			}
			if rapid.Bool().Draw(rt, "narrowAccount") {
				s := rapid.SampledFrom([]string{"CHECKING_ACCOUNT", "CREDIT_CARD"}).Draw(rt, "accType")
				accType = &s
			}
			match := rapid.SampledFrom([]string{model.MatchExact, model.MatchContains, model.MatchStartsWith, model.MatchEndsWith}).Draw(rt, "match")
			env.Exec(t, `INSERT INTO category_rules (id, client_id, description, folded, category_id, transaction_type, account_type, match_type, rank)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`, model.NewID(), w.app.id, desc, model.FoldText(desc),
				rapid.SampledFrom(cats).Draw(rt, "ruleCat"), txType, accType, match, model.MatchRank(match))
		}
		type txCase struct {
			desc, typ, account string
			auto, manual       *string
		}
		want := map[uuid.UUID]txCase{}
		for i, n := 0, rapid.IntRange(1, 12).Draw(rt, "txs"); i < n; i++ {
			c := txCase{desc: ruleText(rt, "txText", 4), typ: rapid.SampledFrom([]string{"DEBIT", "CREDIT"}).Draw(rt, "typ")}
			acc := rapid.SampledFrom(accountIDs).Draw(rt, "account")
			c.account = w.accounts[acc]
			if rapid.Bool().Draw(rt, "hasAuto") {
				s := "05010000"
				c.auto = &s
			}
			if rapid.IntRange(0, 4).Draw(rt, "manual") == 0 {
				s := "20040000"
				c.manual = &s
			}
			cat := c.auto
			if c.manual != nil {
				cat = c.manual
			}
			id := uuid.New()
			// The document as a sync or a PATCH leaves it.
			doc := map[string]any{"id": id, "description": c.desc, "categoryId": cat}
			if c.manual != nil {
				doc["categoryOrigin"] = model.CategoryOrigin{Type: model.OriginManual}
			} else if c.auto != nil {
				doc["categoryOrigin"] = model.CategoryOrigin{Type: model.OriginAutomatic}
			}
			docText, _ := json.Marshal(doc)
			env.Exec(t, `INSERT INTO transactions (id, item_id, account_id, date, status, amount, type, category_id, auto_category_id,
				user_category_id, match_text, data) VALUES ($1, $2, $3, now(), 'POSTED', -1, $4, $5, $6, $7, $8, $9)`,
				id, w.item, acc, c.typ, cat, c.auto, c.manual, model.FoldText(c.desc), string(docText))
			want[id] = c
		}
		if err := env.Sync.Recategorize(ctx, w.app.id); err != nil {
			rt.Fatal(err)
		}
		rules := storedRules(t, env, w.app.id)
		rows, err := env.DB.Pool.Query(ctx, `SELECT id, category_id, category_rule_id, data FROM transactions WHERE item_id = $1`, w.item)
		if err != nil {
			rt.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id uuid.UUID
			var cat *string
			var ruleID *uuid.UUID
			var data string
			if err := rows.Scan(&id, &cat, &ruleID, &data); err != nil {
				rt.Fatal(err)
			}
			c := want[id]
			wantCat, wantOrigin, wantRule := c.auto, model.OriginAutomatic, (*uuid.UUID)(nil)
			if c.manual != nil {
				wantCat, wantOrigin = c.manual, model.OriginManual
			} else if r := model.BestRule(rules, model.FoldText(c.desc), c.typ, c.account); r != nil {
				wantCat, wantOrigin, wantRule = &r.CategoryID, model.OriginRule, &r.ID
			}
			if fmt.Sprint(deref(cat)) != fmt.Sprint(deref(wantCat)) || fmt.Sprint(ruleID) != fmt.Sprint(wantRule) {
				rt.Fatalf("%q (%s on %s): stored category %v by rule %v, want %v by rule %v", c.desc, c.typ, c.account,
					deref(cat), ruleID, deref(wantCat), wantRule)
			}
			var doc struct {
				CategoryID     *string               `json:"categoryId"`
				CategoryOrigin *model.CategoryOrigin `json:"categoryOrigin"`
			}
			_ = json.Unmarshal([]byte(data), &doc)
			if c.manual == nil && (deref(doc.CategoryID) != deref(wantCat) || (wantCat != nil && (doc.CategoryOrigin == nil || doc.CategoryOrigin.Type != wantOrigin))) {
				rt.Fatalf("%q: document says %v / %+v, want %v / %s", c.desc, deref(doc.CategoryID), doc.CategoryOrigin, deref(wantCat), wantOrigin)
			}
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// storedRules reads an application's rules as the precedence in Go sees them.
func storedRules(t testing.TB, env *testsupport.Env, client uuid.UUID) []*model.CategoryRule {
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT id, folded, category_id, transaction_type, account_type, match_type, seq
		FROM category_rules WHERE client_id = $1`, client)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []*model.CategoryRule
	for rows.Next() {
		r := &model.CategoryRule{}
		if err := rows.Scan(&r.ID, &r.Folded, &r.CategoryID, &r.TransactionType, &r.AccountType, &r.MatchType, &r.Seq); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
