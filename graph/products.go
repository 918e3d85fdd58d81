package graph

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/collected"
)

// The REST-only reads of products, kept on Resolver for rest/ until it calls the collected
// package directly.

// RawPage is a page-number envelope of documents ready to send.
type RawPage = collected.RawPage

// ProductList is collected.Engine.ProductList.
func (r *Resolver) ProductList(ctx context.Context, kind string, itemID, ownerID *uuid.UUID, typ *string, page, pageSize *int) (*RawPage, error) {
	return r.Collected.ProductList(ctx, kind, itemID, ownerID, typ, page, pageSize)
}

// ProductByID is collected.Engine.ProductByID.
func (r *Resolver) ProductByID(ctx context.Context, kind string, id uuid.UUID) (json.RawMessage, error) {
	return r.Collected.ProductByID(ctx, kind, id)
}

// IdentityByItem is collected.Engine.IdentityByItem.
func (r *Resolver) IdentityByItem(ctx context.Context, itemID uuid.UUID) (json.RawMessage, error) {
	return r.Collected.IdentityByItem(ctx, itemID)
}
