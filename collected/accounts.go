package collected

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Reduce keeps what a Connect Token may show (section 5: a reduced view): which accounts
// the connection found, never balances, limits, owner or documents.
func Reduce(a *model.Account) *model.Account {
	return &model.Account{ID: a.ID, ItemID: a.ItemID, Type: a.Type, Subtype: a.Subtype, Number: a.Number, Name: a.Name,
		MarketingName: a.MarketingName, CurrencyCode: a.CurrencyCode, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// reduceFor applies Reduce to every account when the caller holds a Connect Token.
func reduceFor(p *auth.Principal, list []*model.Account) []*model.Account {
	if p.IsConnectToken() {
		for i, a := range list {
			list[i] = Reduce(a)
		}
	}
	return list
}

// ValidAccountType reports whether t is an account type filter: none, BANK or CREDIT.
func ValidAccountType(t *string) bool { return t == nil || *t == "BANK" || *t == "CREDIT" }

func checkAccountType(t *string) error {
	if !ValidAccountType(t) {
		return model.Fail(model.CodeInvalidParameter, "type must be BANK or CREDIT (got %q).", *t)
	}
	return nil
}

// Accounts reads an item's accounts (GET /accounts?itemId=) as their stored documents; a
// Connect Token's reduced view is written as documents too, so every page is read alike.
func (e *Engine) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if err := checkAccountType(typ); err != nil {
		return nil, err
	}
	if err := p.RequireItem(itemID); err != nil {
		return nil, err
	}
	var docs []model.JSONDocument
	ours, err := e.checked(ctx, 'i', itemID, p.ClientID, e.itemOwner, func(uuid.UUID) (n int, err error) {
		docs, err = e.reads(ctx).AccountDocs(ctx, itemID, typ)
		return len(docs), err
	})
	if err != nil {
		return nil, err
	}
	if !ours {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
	}
	if p.IsConnectToken() {
		if docs, err = reduceDocs(docs); err != nil {
			return nil, err
		}
	}
	return &model.AccountPage{DocumentPage: model.NewDocumentPage(docs, len(docs), 1, max(len(docs), 1))}, nil
}

// reduceDocs rewrites stored accounts as their reduced view.
func reduceDocs(docs []model.JSONDocument) ([]model.JSONDocument, error) {
	out := make([]model.JSONDocument, len(docs))
	for i, d := range docs {
		var a model.Account
		if err := json.Unmarshal(d, &a); err != nil {
			return nil, err
		}
		doc, err := json.Marshal(Reduce(&a))
		if err != nil {
			return nil, err
		}
		out[i] = doc
	}
	return out, nil
}

// AccountsOfItems lists the accounts of items the caller reached through a read that
// checked them (GraphQL's item.accounts), by item, in one statement; every item asked for
// has an entry. Reduced for a Connect Token.
func (e *Engine) AccountsOfItems(ctx context.Context, itemIDs []uuid.UUID, typ *string) (map[uuid.UUID][]*model.Account, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if err := checkAccountType(typ); err != nil {
		return nil, err
	}
	list, err := e.reads(ctx).AccountsOfItems(ctx, itemIDs, typ)
	if err != nil {
		return nil, err
	}
	byItem := make(map[uuid.UUID][]*model.Account, len(itemIDs))
	for _, id := range itemIDs {
		byItem[id] = []*model.Account{}
	}
	for _, a := range reduceFor(p, list) {
		byItem[a.ItemID] = append(byItem[a.ItemID], a)
	}
	return byItem, nil
}

// Account reads one account of the caller.
func (e *Engine) Account(ctx context.Context, id uuid.UUID) (*model.Account, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	a, found, err := e.reads(ctx).Account(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, accountNotFound(id)
	}
	e.owners.remember('a', id, p.ClientID, a.ItemID)
	return a, nil
}

// AccountWithTransactions is Account and the first page of the account's transactions
// under f (its AccountID is the account), read together in one statement. Without
// withDocument the account is not read, only the page (Transactions), and the account
// carries its id alone. The caller checks first and f with First and
// CheckTransactionFilter beforehand when it wants their errors apart.
func (e *Engine) AccountWithTransactions(ctx context.Context, f model.TransactionFilter, first *int, withDocument bool) (*model.Account, *model.TransactionConnection, error) {
	if !withDocument {
		page, err := e.Transactions(ctx, f, first, nil)
		if err != nil {
			return nil, nil, err
		}
		return &model.Account{ID: f.AccountID}, page, nil
	}
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, nil, err
	}
	limit, err := First(first, DefaultFirst)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckTransactionFilter(f); err != nil {
		return nil, nil, err
	}
	// Through checked for the account's item, which names the page's partition.
	var a *model.Account
	var rows db.TransactionRows
	ours, err := e.checked(ctx, 'a', f.AccountID, p.ClientID, e.accountOwner, func(item uuid.UUID) (int, error) {
		var found bool
		var err error
		a, rows, found, err = e.reads(ctx).AccountWithTransactions(ctx, p.ClientID, item, f.AccountID, f, limit+1)
		if !found {
			return 0, err
		}
		return 1, err
	})
	if err != nil {
		return nil, nil, err
	}
	if !ours || a == nil {
		return nil, nil, accountNotFound(f.AccountID)
	}
	return a, finishPage(f, rows, limit), nil
}
