package graph

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Root product queries: each checks the parent the way its REST endpoint does (an unknown
// or foreign parent is a 404), then reads through the same code as the nested fields.

func timePtr(t *model.Time) *time.Time {
	if t == nil {
		return nil
	}
	return &t.Time
}

func (r *queryResolver) Transactions(ctx context.Context, accountID uuid.UUID, first *int, after *string, filter *model.TransactionFilterInput) (*model.TransactionConnection, error) {
	limit, err := firstArg(first, defaultFirst)
	if err != nil {
		return nil, err
	}
	f := transactionFilter(accountID, filter)
	page, err := r.transactionPage(ctx, f, after, limit, false)
	if err != nil {
		return nil, err
	}
	return r.txConnection(f, page, wantOf(func(n string) bool { return selected(ctx, n) }))
}

func (r *queryResolver) Transaction(ctx context.Context, id uuid.UUID) (*model.Transaction, error) {
	raw, err := r.Resolver.Transaction(ctx, id)
	if err != nil {
		return nil, err
	}
	t := new(model.Transaction)
	return t, json.Unmarshal(raw, t)
}

func (r *mutationResolver) UpdateTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (*model.Transaction, error) {
	raw, err := r.SetTransactionCategory(ctx, id, categoryID)
	if err != nil {
		return nil, err
	}
	t := new(model.Transaction)
	return t, json.Unmarshal(raw, t)
}

// checkedParent authorizes a root list: the caller may read product data and owns the
// item or the owner (account, investment).
func (r *Resolver) checkedParent(ctx context.Context, kind string, itemID, ownerID *uuid.UUID) (uuid.UUID, error) {
	p, err := dataReader(ctx)
	if err != nil {
		return uuid.Nil, err
	}
	if itemID != nil {
		if _, err := r.Sync.Get(ctx, p, *itemID); err != nil {
			return uuid.Nil, err
		}
	}
	if ownerID != nil {
		if err := r.ownerExists(ctx, p.ClientID, kind, *ownerID); err != nil {
			return uuid.Nil, err
		}
	}
	return p.ClientID, nil
}

func (r *queryResolver) Investments(ctx context.Context, itemID uuid.UUID, typ *string, first *int, after *string) (*model.InvestmentConnection, error) {
	client, err := r.checkedParent(ctx, "investment", &itemID, nil)
	if err != nil {
		return nil, err
	}
	return r.investmentConnection(ctx, client, db.DocumentScope{Kind: "investment", ItemID: &itemID, Type: typ}, first, after)
}

func (r *queryResolver) Investment(ctx context.Context, id uuid.UUID) (*model.Investment, error) {
	return productDoc[model.Investment](ctx, r.Resolver, "investment", id)
}

func (r *queryResolver) InvestmentTransactions(ctx context.Context, investmentID uuid.UUID, first *int, after *string) (*model.InvestmentTransactionConnection, error) {
	client, err := r.checkedParent(ctx, "investment_transaction", nil, &investmentID)
	if err != nil {
		return nil, err
	}
	return r.investmentTransactionConnection(ctx, client, db.DocumentScope{Kind: "investment_transaction", OwnerID: &investmentID}, first, after)
}

func (r *queryResolver) Identity(ctx context.Context, itemID *uuid.UUID, id *uuid.UUID) (*model.Identity, error) {
	switch {
	case (itemID == nil) == (id == nil):
		return nil, model.Fail(model.CodeInvalidParameter, "Give exactly one of itemId and id.")
	case id != nil:
		return productDoc[model.Identity](ctx, r.Resolver, "identity", *id)
	}
	raw, err := r.IdentityByItem(ctx, *itemID)
	if err != nil {
		return nil, err
	}
	v := new(model.Identity)
	return v, json.Unmarshal(raw, v)
}

func (r *queryResolver) Loans(ctx context.Context, itemID uuid.UUID, first *int, after *string) (*model.LoanConnection, error) {
	client, err := r.checkedParent(ctx, "loan", &itemID, nil)
	if err != nil {
		return nil, err
	}
	return r.loanConnection(ctx, client, db.DocumentScope{Kind: "loan", ItemID: &itemID}, first, after)
}

func (r *queryResolver) Loan(ctx context.Context, id uuid.UUID) (*model.Loan, error) {
	return productDoc[model.Loan](ctx, r.Resolver, "loan", id)
}

func (r *queryResolver) Bills(ctx context.Context, accountID uuid.UUID, first *int, after *string) (*model.CreditCardBillConnection, error) {
	client, err := r.checkedParent(ctx, "bill", nil, &accountID)
	if err != nil {
		return nil, err
	}
	return r.billConnection(ctx, client, db.DocumentScope{Kind: "bill", OwnerID: &accountID}, first, after)
}

func (r *queryResolver) Bill(ctx context.Context, id uuid.UUID) (*model.CreditCardBill, error) {
	return productDoc[model.CreditCardBill](ctx, r.Resolver, "bill", id)
}

func (r *queryResolver) AccountStatements(ctx context.Context, accountID uuid.UUID, first *int, after *string) (*model.AccountStatementConnection, error) {
	client, err := r.checkedParent(ctx, "statement", nil, &accountID)
	if err != nil {
		return nil, err
	}
	return r.statementConnection(ctx, client, db.DocumentScope{Kind: "statement", OwnerID: &accountID}, first, after)
}

func (r *queryResolver) Consents(ctx context.Context, itemID uuid.UUID, first *int, after *string) (*model.ConsentConnection, error) {
	client, err := r.checkedParent(ctx, "consent", &itemID, nil)
	if err != nil {
		return nil, err
	}
	return r.consentConnection(ctx, client, db.DocumentScope{Kind: "consent", ItemID: &itemID}, first, after)
}

func (r *queryResolver) Consent(ctx context.Context, id uuid.UUID) (*model.Consent, error) {
	return productDoc[model.Consent](ctx, r.Resolver, "consent", id)
}

func (r *queryResolver) Spending(ctx context.Context, accountID *uuid.UUID, itemID *uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	if (accountID == nil) == (itemID == nil) {
		return nil, model.Fail(model.CodeInvalidParameter, "Give exactly one of accountId and itemId.")
	}
	if _, err := r.checkedParent(ctx, "spending", itemID, accountID); err != nil {
		return nil, err
	}
	ids := []uuid.UUID{}
	if accountID != nil {
		ids = append(ids, *accountID)
	} else {
		var err error
		if ids, err = r.DB.AccountIDsOfItem(ctx, *itemID); err != nil {
			return nil, err
		}
	}
	return r.spending(ctx, ids, from, to)
}
