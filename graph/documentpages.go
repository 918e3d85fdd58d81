package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/graph/generated"
	"ponte/model"
)

// The page-number forms of the product lists and of the deprecated transaction list: the
// same reads as REST's, answered as pages of stored documents. The projection writes their
// results from the documents (project.go); the resolvers below decode them for a selection
// of fields resolvers compute.

func (r *queryResolver) InvestmentsPage(ctx context.Context, itemID uuid.UUID, typ *string, page, pageSize *int) (*model.InvestmentPage, error) {
	pg, err := r.Collected.ProductList(ctx, "investment", &itemID, nil, typ, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) InvestmentTransactionsPage(ctx context.Context, investmentID uuid.UUID, page, pageSize *int) (*model.InvestmentTransactionPage, error) {
	pg, err := r.Collected.ProductList(ctx, "investment_transaction", nil, &investmentID, nil, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentTransactionPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) LoansPage(ctx context.Context, itemID uuid.UUID, page, pageSize *int) (*model.LoanPage, error) {
	pg, err := r.Collected.ProductList(ctx, "loan", &itemID, nil, nil, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.LoanPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) BillsPage(ctx context.Context, accountID uuid.UUID, page, pageSize *int) (*model.CreditCardBillPage, error) {
	pg, err := r.Collected.ProductList(ctx, "bill", nil, &accountID, nil, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.CreditCardBillPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) AccountStatementsPage(ctx context.Context, accountID uuid.UUID, page, pageSize *int) (*model.AccountStatementPage, error) {
	pg, err := r.Collected.ProductList(ctx, "statement", nil, &accountID, nil, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.AccountStatementPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) ConsentsPage(ctx context.Context, itemID uuid.UUID, page, pageSize *int) (*model.ConsentPage, error) {
	pg, err := r.Collected.ProductList(ctx, "consent", &itemID, nil, nil, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.ConsentPage{DocumentPage: *pg}, nil
}

func (r *queryResolver) TransactionsPage(ctx context.Context, accountID uuid.UUID, filter *model.TransactionFilterInput, billID *uuid.UUID, page, pageSize *int) (*model.TransactionPage, error) {
	f := model.LegacyTransactionFilter{TransactionFilter: collected.TransactionFilterOf(accountID, filter), BillID: billID}
	pg, err := r.Collected.LegacyTransactions(ctx, f, page, pageSize)
	if err != nil {
		return nil, err
	}
	return &model.TransactionPage{DocumentPage: *pg}, nil
}

// The pages' results, decoded.

// InvestmentPage returns the InvestmentPage field resolvers.
func (r *Resolver) InvestmentPage() generated.InvestmentPageResolver {
	return &investmentPageResolver{r}
}

// InvestmentTransactionPage returns the InvestmentTransactionPage field resolvers.
func (r *Resolver) InvestmentTransactionPage() generated.InvestmentTransactionPageResolver {
	return &investmentTransactionPageResolver{r}
}

// LoanPage returns the LoanPage field resolvers.
func (r *Resolver) LoanPage() generated.LoanPageResolver { return &loanPageResolver{r} }

// CreditCardBillPage returns the CreditCardBillPage field resolvers.
func (r *Resolver) CreditCardBillPage() generated.CreditCardBillPageResolver {
	return &creditCardBillPageResolver{r}
}

// AccountStatementPage returns the AccountStatementPage field resolvers.
func (r *Resolver) AccountStatementPage() generated.AccountStatementPageResolver {
	return &accountStatementPageResolver{r}
}

// ConsentPage returns the ConsentPage field resolvers.
func (r *Resolver) ConsentPage() generated.ConsentPageResolver { return &consentPageResolver{r} }

// TransactionPage returns the TransactionPage field resolvers.
func (r *Resolver) TransactionPage() generated.TransactionPageResolver {
	return &transactionPageResolver{r}
}

type investmentPageResolver struct{ *Resolver }
type investmentTransactionPageResolver struct{ *Resolver }
type loanPageResolver struct{ *Resolver }
type creditCardBillPageResolver struct{ *Resolver }
type accountStatementPageResolver struct{ *Resolver }
type consentPageResolver struct{ *Resolver }
type transactionPageResolver struct{ *Resolver }

func (r *investmentPageResolver) Results(_ context.Context, p *model.InvestmentPage) ([]*model.Investment, error) {
	return decodeAll[model.Investment](p.Documents)
}

func (r *investmentTransactionPageResolver) Results(_ context.Context, p *model.InvestmentTransactionPage) ([]*model.InvestmentTransaction, error) {
	return decodeAll[model.InvestmentTransaction](p.Documents)
}

func (r *loanPageResolver) Results(_ context.Context, p *model.LoanPage) ([]*model.Loan, error) {
	return decodeAll[model.Loan](p.Documents)
}

func (r *creditCardBillPageResolver) Results(_ context.Context, p *model.CreditCardBillPage) ([]*model.CreditCardBill, error) {
	return decodeAll[model.CreditCardBill](p.Documents)
}

func (r *accountStatementPageResolver) Results(_ context.Context, p *model.AccountStatementPage) ([]*model.AccountStatement, error) {
	return decodeAll[model.AccountStatement](p.Documents)
}

func (r *consentPageResolver) Results(_ context.Context, p *model.ConsentPage) ([]*model.Consent, error) {
	return decodeAll[model.Consent](p.Documents)
}

func (r *transactionPageResolver) Results(_ context.Context, p *model.TransactionPage) ([]*model.Transaction, error) {
	return decodeAll[model.Transaction](p.Documents)
}
