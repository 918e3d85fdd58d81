package graph

import (
	"context"

	"ponte/model"
)

func (r *queryResolver) Connectors(ctx context.Context, filter *model.ConnectorFilter, healthDetails *bool, page, pageSize *int) (*model.ConnectorPage, error) {
	return r.Collected.Connectors(ctx, filter, healthDetails, page, pageSize)
}

func (r *queryResolver) Connector(ctx context.Context, id int, healthDetails *bool) (*model.Connector, error) {
	return r.Collected.Connector(ctx, id, healthDetails)
}

func (r *mutationResolver) ValidateConnectorParameters(ctx context.Context, connectorID int, parameters map[string]any) (*model.ValidationResult, error) {
	return r.Collected.ValidateParameters(ctx, connectorID, parameters)
}

// nonNil makes empty lists render as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
