package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/model"
)

// Root product queries: each checks the parent the way its REST endpoint does (an unknown
// or foreign parent is a 404), then reads through the same code as the nested fields.

func (r *queryResolver) Transactions(ctx context.Context, accountID uuid.UUID, first *int, after *string, filter *model.TransactionFilterInput) (*model.TransactionConnection, error) {
	return r.Collected.Transactions(ctx, collected.TransactionFilterOf(accountID, filter), first, after)
}

func (r *queryResolver) Transaction(ctx context.Context, id uuid.UUID) (*model.Transaction, error) {
	return decodeOne[model.Transaction](r.Collected.Transaction(ctx, id))
}

func (r *mutationResolver) UpdateTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (*model.Transaction, error) {
	return decodeOne[model.Transaction](r.Collected.SetTransactionCategory(ctx, id, categoryID))
}

func (r *queryResolver) CategoryFeedback(ctx context.Context) ([]*model.CategoryFeedback, error) {
	return r.Collected.CategoryFeedback(ctx)
}

func (r *queryResolver) Investments(ctx context.Context, itemID uuid.UUID, typ *string, first *int, after *string) (*model.InvestmentConnection, error) {
	if err := r.Collected.CheckParent(ctx, "investment", &itemID, nil); err != nil {
		return nil, err
	}
	return r.investmentConnection(ctx, model.DocumentScope{Kind: "investment", ItemID: &itemID, Type: typ}, first, after)
}

func (r *queryResolver) Investment(ctx context.Context, id uuid.UUID) (*model.Investment, error) {
	return decodeOne[model.Investment](r.Collected.ProductByID(ctx, "investment", id))
}

func (r *queryResolver) InvestmentTransactions(ctx context.Context, investmentID uuid.UUID, first *int, after *string) (*model.InvestmentTransactionConnection, error) {
	if err := r.Collected.CheckParent(ctx, "investment_transaction", nil, &investmentID); err != nil {
		return nil, err
	}
	return r.investmentTransactionConnection(ctx, model.DocumentScope{Kind: "investment_transaction", OwnerID: &investmentID}, first, after)
}

func (r *queryResolver) Identity(ctx context.Context, itemID *uuid.UUID, id *uuid.UUID) (*model.Identity, error) {
	switch {
	case (itemID == nil) == (id == nil):
		return nil, model.Fail(model.CodeInvalidParameter, "Give exactly one of itemId and id.")
	case id != nil:
		return decodeOne[model.Identity](r.Collected.ProductByID(ctx, "identity", *id))
	}
	return decodeOne[model.Identity](r.Collected.IdentityByItem(ctx, *itemID))
}

func (r *queryResolver) Loans(ctx context.Context, itemID uuid.UUID, first *int, after *string) (*model.LoanConnection, error) {
	if err := r.Collected.CheckParent(ctx, "loan", &itemID, nil); err != nil {
		return nil, err
	}
	return r.loanConnection(ctx, model.DocumentScope{Kind: "loan", ItemID: &itemID}, first, after)
}

func (r *queryResolver) Loan(ctx context.Context, id uuid.UUID) (*model.Loan, error) {
	return decodeOne[model.Loan](r.Collected.ProductByID(ctx, "loan", id))
}

func (r *queryResolver) Bills(ctx context.Context, accountID uuid.UUID, first *int, after *string) (*model.CreditCardBillConnection, error) {
	if err := r.Collected.CheckParent(ctx, "bill", nil, &accountID); err != nil {
		return nil, err
	}
	return r.billConnection(ctx, model.DocumentScope{Kind: "bill", OwnerID: &accountID}, first, after)
}

func (r *queryResolver) Bill(ctx context.Context, id uuid.UUID) (*model.CreditCardBill, error) {
	return decodeOne[model.CreditCardBill](r.Collected.ProductByID(ctx, "bill", id))
}

func (r *queryResolver) AccountStatements(ctx context.Context, accountID uuid.UUID, first *int, after *string) (*model.AccountStatementConnection, error) {
	if err := r.Collected.CheckParent(ctx, "statement", nil, &accountID); err != nil {
		return nil, err
	}
	return r.statementConnection(ctx, model.DocumentScope{Kind: "statement", OwnerID: &accountID}, first, after)
}

func (r *queryResolver) Consents(ctx context.Context, itemID uuid.UUID, first *int, after *string) (*model.ConsentConnection, error) {
	if err := r.Collected.CheckParent(ctx, "consent", &itemID, nil); err != nil {
		return nil, err
	}
	return r.consentConnection(ctx, model.DocumentScope{Kind: "consent", ItemID: &itemID}, first, after)
}

func (r *queryResolver) Consent(ctx context.Context, id uuid.UUID) (*model.Consent, error) {
	return decodeOne[model.Consent](r.Collected.ProductByID(ctx, "consent", id))
}

func (r *queryResolver) Spending(ctx context.Context, accountID *uuid.UUID, itemID *uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	return r.Collected.Spending(ctx, accountID, itemID, from, to)
}

func (r *queryResolver) CreditInformation(ctx context.Context, itemID *uuid.UUID, id *uuid.UUID) (*model.CreditInformation, error) {
	switch {
	case (itemID == nil) == (id == nil):
		return nil, model.Fail(model.CodeInvalidParameter, "Give exactly one of itemId and id.")
	case id != nil:
		return decodeOne[model.CreditInformation](r.Collected.ProductByID(ctx, "credit_information", *id))
	}
	return decodeOne[model.CreditInformation](r.Collected.CreditInfoByItem(ctx, *itemID))
}
