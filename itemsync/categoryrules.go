package itemsync

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// applyCategoryRules decides a collected transaction's category with the application's
// rules, after the categorizer gave the automatic one (kept as AutoCategoryID so deleting
// the rule gives it back). A category the client set by hand is kept by the merge.
func applyCategoryRules(t *model.Transaction, rules []*model.CategoryRule, subtype string, names map[string]string) {
	t.AutoCategoryID = t.CategoryID
	t.CategoryOrigin = nil
	if t.CategoryID != nil {
		t.CategoryOrigin = &model.CategoryOrigin{Type: model.OriginAutomatic}
	}
	if len(rules) == 0 {
		return
	}
	r := model.BestRule(rules, model.FoldText(t.Description), t.Type, subtype)
	if r == nil {
		return
	}
	id, name := r.CategoryID, names[r.CategoryID]
	t.CategoryID, t.Category = &id, &name
	t.CategoryOrigin = &model.CategoryOrigin{Type: model.OriginRule, RuleID: &r.ID}
}

// maxRuleDescription is the longest rule description, in characters.
const maxRuleDescription = 200

// validateRule checks a POST /categories/rules body and fills the rule it asks for.
func validateRule(in *model.CategoryRuleInput) (*model.CategoryRule, error) {
	desc := strings.TrimSpace(in.Description)
	if desc == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "description is required and must not be blank.")
	}
	if n := utf8.RuneCountInString(desc); n > maxRuleDescription || !utf8.ValidString(desc) {
		return nil, model.Fail(model.CodeInvalidParameter, "description must be valid text of at most %d characters.", maxRuleDescription)
	}
	if strings.ContainsRune(desc, 0) {
		return nil, model.Fail(model.CodeInvalidParameter, "description must not contain NUL characters.")
	}
	if in.CategoryID == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId is required.")
	}
	r := &model.CategoryRule{ID: model.NewID(), Description: desc, Folded: model.FoldText(desc), CategoryID: in.CategoryID,
		MatchType: model.MatchExact, TransactionType: in.TransactionType, AccountType: in.AccountType}
	if in.MatchType != nil {
		r.MatchType = *in.MatchType
	}
	if model.MatchRank(r.MatchType) < 0 {
		return nil, model.Fail(model.CodeInvalidParameter, "matchType must be exact, contains, startsWith or endsWith.")
	}
	if t := in.TransactionType; t != nil && *t != "DEBIT" && *t != "CREDIT" {
		return nil, model.Fail(model.CodeInvalidParameter, "transactionType must be DEBIT or CREDIT.")
	}
	if t := in.AccountType; t != nil && *t != "CHECKING_ACCOUNT" && *t != "CREDIT_CARD" {
		return nil, model.Fail(model.CodeInvalidParameter, "accountType must be CHECKING_ACCOUNT or CREDIT_CARD.")
	}
	return r, nil
}

// CreateCategoryRule applies POST /categories/rules: the rule is stored and the
// recategorization of the application's transactions is queued in the same transaction.
func (e *Engine) CreateCategoryRule(ctx context.Context, in model.CategoryRuleInput) (*model.CategoryRule, error) {
	p, err := auth.Require(ctx, auth.WriteProductData)
	if err != nil {
		return nil, err
	}
	r, err := validateRule(&in)
	if err != nil {
		return nil, err
	}
	if _, found, err := e.db.Category(ctx, r.CategoryID); err != nil {
		return nil, err
	} else if !found {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId %q is not a category; see GET /categories.", r.CategoryID)
	}
	r.ClientID = p.ClientID
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.InsertCategoryRule(ctx, r); err != nil {
			return err
		}
		return e.enqueue(ctx, tx, RecategorizeArgs{ClientID: p.ClientID}, nil)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// DeleteCategoryRule applies DELETE /categories/rules/{id}: the transactions the rule
// decided go back to the next rule or the automatic category, in the background.
func (e *Engine) DeleteCategoryRule(ctx context.Context, id uuid.UUID) (*model.CategoryRule, error) {
	p, err := auth.Require(ctx, auth.WriteProductData)
	if err != nil {
		return nil, err
	}
	var gone *model.CategoryRule
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		r, found, err := tx.DeleteCategoryRule(ctx, p.ClientID, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeCategoryRuleNotFound, "Category rule %s not found.", id)
		}
		gone = r
		return e.enqueue(ctx, tx, RecategorizeArgs{ClientID: p.ClientID}, nil)
	})
	return gone, err
}

// CategoryRules applies GET /categories/rules: the application's rules, oldest first.
func (e *Engine) CategoryRules(ctx context.Context, page, pageSize *int) (*model.CategoryRulePage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	n, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := e.db.ListCategoryRules(ctx, p.ClientID, limit, offset)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []*model.CategoryRule{}
	}
	return &model.CategoryRulePage{Total: total, TotalPages: model.TotalPages(total, limit), Page: n, Results: list}, nil
}

// RecategorizeArgs recategorizes an application's stored transactions after its rules
// changed. Each run computes every category from the rules as they are, so repeated or
// overlapping runs converge.
type RecategorizeArgs struct {
	ClientID uuid.UUID `json:"clientId"`
}

func (RecategorizeArgs) Kind() string { return "category_rules_recategorize" }

type recategorizeWorker struct {
	river.WorkerDefaults[RecategorizeArgs]
	e *Engine
}

func (w *recategorizeWorker) Work(ctx context.Context, job *river.Job[RecategorizeArgs]) error {
	return w.e.Recategorize(ctx, job.Args.ClientID)
}

// eventIDsPerEvent bounds one transactions/updated event's transactionIds, so that a rule
// changing a million transactions makes deliverable events rather than one huge one.
const eventIDsPerEvent = 1000

// Recategorize applies an application's rules to its stored transactions and records
// transactions/updated, per item and account, for those whose category changed, in one
// transaction.
func (e *Engine) Recategorize(ctx context.Context, clientID uuid.UUID) error {
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		changed, err := tx.RecategorizeClient(ctx, clientID, e.now())
		if err != nil || len(changed) == 0 {
			return err
		}
		type key struct{ item, account uuid.UUID }
		groups := map[key][]string{}
		var order []key
		var items []uuid.UUID
		seenItem := map[uuid.UUID]bool{}
		for _, c := range changed {
			k := key{c.Item, c.Account}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], c.ID.String())
			if !seenItem[c.Item] {
				seenItem[c.Item] = true
				items = append(items, c.Item)
			}
		}
		urls, err := tx.ItemWebhookURLs(ctx, items)
		if err != nil {
			return err
		}
		for _, k := range order {
			ids := groups[k]
			for len(ids) > 0 {
				n := min(len(ids), eventIDsPerEvent)
				item := k.item
				p := map[string]any{"itemId": item.String(), "accountId": k.account.String(), "transactionIds": ids[:n],
					"triggeredBy": "CLIENT", "clientId": clientID.String()}
				if err := tx.InsertEvent(ctx, &db.Event{ClientID: clientID, Event: "transactions/updated", ItemID: &item,
					TargetURL: urls[item], Payload: p}); err != nil {
					return err
				}
				ids = ids[n:]
			}
		}
		return nil
	})
}
