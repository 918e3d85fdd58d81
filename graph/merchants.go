package graph

import (
	"context"

	"ponte/model"
)

func (r *queryResolver) Merchants(ctx context.Context, cnpjs []string) (*model.MerchantLookup, error) {
	return r.Directory.Lookup(ctx, cnpjs)
}
