package graph

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/model"
)

// The REST-only reads of transactions, kept on Resolver for rest/ until it calls the
// collected package directly.

// RawTransactionPage is a page of GET /v2/transactions.
type RawTransactionPage = collected.RawTransactionPage

// TransactionsV2 is collected.Engine.TransactionsV2.
func (r *Resolver) TransactionsV2(ctx context.Context, f model.TransactionFilter, after *string) (*RawTransactionPage, error) {
	return r.Collected.TransactionsV2(ctx, f, after)
}

// LegacyTransactions is collected.Engine.LegacyTransactions.
func (r *Resolver) LegacyTransactions(ctx context.Context, f model.LegacyTransactionFilter, page, pageSize *int) (*RawPage, error) {
	return r.Collected.LegacyTransactions(ctx, f, page, pageSize)
}

// Transaction is collected.Engine.Transaction.
func (r *Resolver) Transaction(ctx context.Context, id uuid.UUID) (json.RawMessage, error) {
	return r.Collected.Transaction(ctx, id)
}

// SetTransactionCategory is collected.Engine.SetTransactionCategory.
func (r *Resolver) SetTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (json.RawMessage, error) {
	return r.Collected.SetTransactionCategory(ctx, id, categoryID)
}
