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

// Accounts answers GET /accounts?itemId=: the item's accounts, reduced for a Connect Token.
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
	list, err := ownedItemRows(e, p, itemID,
		func() ([]*model.Account, error) { return e.db.Accounts(ctx, itemID, typ) },
		func() ([]*model.Account, bool, error) { return e.db.OwnedAccounts(ctx, p.ClientID, itemID, typ) })
	if err != nil {
		return nil, err
	}
	list = reduceFor(p, list)
	return &model.AccountPage{Total: len(list), TotalPages: model.ListPages(len(list)), Page: 1, Results: nonNil(list)}, nil
}

// AccountDocs answers GET /accounts as finished JSON documents. A Connect Token's reduced
// view is built from the accounts' fields, as Accounts builds it. Stored documents are
// appended to *buf, for a caller that writes them out before reusing it, unless buf is nil
// (db.AccountDocs).
func (e *Engine) AccountDocs(ctx context.Context, buf *[]byte, itemID uuid.UUID, typ *string) ([]json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if p.IsConnectToken() {
		page, err := e.Accounts(ctx, itemID, typ)
		if err != nil {
			return nil, err
		}
		docs := make([]json.RawMessage, 0, len(page.Results))
		for _, a := range page.Results {
			doc, err := json.Marshal(a)
			if err != nil {
				return nil, err
			}
			docs = append(docs, doc)
		}
		return docs, nil
	}
	if err := checkAccountType(typ); err != nil {
		return nil, err
	}
	if err := p.RequireItem(itemID); err != nil {
		return nil, err
	}
	return ownedItemRows(e, p, itemID,
		func() ([]json.RawMessage, error) { return e.db.AccountDocs(ctx, buf, itemID, typ) },
		func() ([]json.RawMessage, bool, error) {
			return e.db.OwnedAccountDocs(ctx, buf, p.ClientID, itemID, typ)
		})
}

// ownedItemRows reads an item's rows for p with plain, the baseline's statement, once the
// item is known to be p's (owners), and otherwise with owned, whose statement checks the
// owner and says whether the item is p's. A plain read without rows is read again with
// owned: the item may have none, or be gone since its owner was remembered.
func ownedItemRows[T any](e *Engine, p *auth.Principal, itemID uuid.UUID, plain func() ([]T, error), owned func() ([]T, bool, error)) ([]T, error) {
	known, mine := e.owners.known('i', itemID, p.ClientID)
	if known && !mine {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
	}
	var rows []T
	var err error
	if mine {
		if rows, err = plain(); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 {
		found := false
		if rows, found, err = owned(); err != nil {
			return nil, err
		}
		if !found {
			return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
		}
		e.owners.remember('i', itemID, p.ClientID)
	}
	return rows, nil
}

// ItemAccounts lists the accounts of an item the caller reached through a read that
// checked it (GraphQL's item.accounts), reduced for a Connect Token.
func (e *Engine) ItemAccounts(ctx context.Context, itemID uuid.UUID, typ *string) ([]*model.Account, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if err := checkAccountType(typ); err != nil {
		return nil, err
	}
	list, err := e.db.Accounts(ctx, itemID, typ)
	if err != nil {
		return nil, err
	}
	return nonNil(reduceFor(p, list)), nil
}

// AccountsOfItems is ItemAccounts for many items in one statement, by item; every item
// asked for has an entry. The batched read behind a GraphQL list of items with accounts.
func (e *Engine) AccountsOfItems(ctx context.Context, itemIDs []uuid.UUID, typ *string) (map[uuid.UUID][]*model.Account, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if err := checkAccountType(typ); err != nil {
		return nil, err
	}
	list, err := e.db.AccountsOfItems(ctx, itemIDs, typ)
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
	a, found, err := e.db.Account(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, accountNotFound(id)
	}
	return a, nil
}

// AccountWithTransactions is Account and the first page of the account's transactions
// under f (its AccountID is the account), read together. The caller checks first and f
// with First and CheckTransactionFilter beforehand when it wants their errors apart.
// Without withDocument the account carries its id alone (see db.AccountWithTransactions).
func (e *Engine) AccountWithTransactions(ctx context.Context, f model.TransactionFilter, first *int, withDocument bool) (*model.Account, *TransactionPage, error) {
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
	known, owned := e.owners.known('a', f.AccountID, p.ClientID)
	if known && !owned {
		return nil, nil, accountNotFound(f.AccountID)
	}
	if owned && !withDocument {
		docs, keys, err := e.db.TransactionPage(ctx, f, nil, limit+1)
		if err != nil {
			return nil, nil, err
		}
		if len(docs) > 0 { // else: no transactions (under f), or the account is gone
			return &model.Account{ID: f.AccountID}, e.finishPage(f, db.TransactionRows{Docs: docs, Keys: keys}, limit), nil
		}
	}
	a, rows, found, err := e.db.AccountWithTransactions(ctx, p.ClientID, f.AccountID, f, limit+1, withDocument)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, accountNotFound(f.AccountID)
	}
	e.owners.remember('a', f.AccountID, p.ClientID)
	return a, e.finishPage(f, rows, limit), nil
}
