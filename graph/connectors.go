package graph

import (
	"context"
	"slices"
	"strings"
	"time"

	"ponte/auth"
	"ponte/itemsync"
	"ponte/model"
)

func (r *queryResolver) Connectors(ctx context.Context, filter *model.ConnectorFilter, healthDetails *bool, page, pageSize *int) (*model.ConnectorPage, error) {
	if _, err := auth.Require(ctx, auth.ReadConnectors); err != nil {
		return nil, err
	}
	p, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	var f model.ConnectorFilter
	if filter != nil {
		f = *filter
	}
	for _, t := range f.Types {
		if !slices.Contains(model.ConnectorTypes, t) {
			return nil, model.Fail(model.CodeInvalidParameter, "types: %q is not a connector type; use %s.", t, joinTypes())
		}
	}
	for _, c := range f.Countries {
		if c != "BR" {
			return nil, model.Fail(model.CodeInvalidParameter, "countries: %q is not served; the only allowed value is BR.", c)
		}
	}
	list, total, err := r.DB.Connectors(ctx, f, limit, offset)
	if err != nil {
		return nil, err
	}
	if err := r.fillHealth(ctx, list, healthDetails); err != nil {
		return nil, err
	}
	return &model.ConnectorPage{Total: total, TotalPages: totalPages(total, limit), Page: p, Results: nonNil(list)}, nil
}

func (r *queryResolver) Connector(ctx context.Context, id int, healthDetails *bool) (*model.Connector, error) {
	if _, err := auth.Require(ctx, auth.ReadConnectors); err != nil {
		return nil, err
	}
	c, err := r.connector(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := r.fillHealth(ctx, []*model.Connector{c}, healthDetails); err != nil {
		return nil, err
	}
	return c, nil
}

func (r *Resolver) connector(ctx context.Context, id int) (*model.Connector, error) {
	c, found, err := r.DB.Connector(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", id)
	}
	return c, nil
}

// fillHealth adds health details when asked, and drops any stored ones otherwise. The
// figures come from the executions that finished in the last six hours.
func (r *Resolver) fillHealth(ctx context.Context, list []*model.Connector, healthDetails *bool) error {
	want := healthDetails != nil && *healthDetails
	var stats map[int][2]int
	if want {
		var err error
		if stats, err = r.DB.ConnectorStats(ctx, time.Now().Add(-6*time.Hour)); err != nil {
			return err
		}
	}
	for _, c := range list {
		c.Health.Details = nil
		if !want {
			continue
		}
		d := &model.HealthDetails{}
		if s, ok := stats[c.ID]; ok && s[0] > 0 {
			d.ConnectionsLast6Hours = s[0]
			errRate := 100 * float64(s[1]) / float64(s[0])
			okRate := 100 - errRate
			d.ErrorRateLast6Hours, d.ConnectionRateLast6Hours = &errRate, &okRate
		}
		if c.Health.Status == model.HealthOffline {
			msg := "The institution is not accepting connections at the moment."
			d.Error = &msg
		}
		c.Health.Details = d
	}
	return nil
}

func (r *mutationResolver) ValidateConnectorParameters(ctx context.Context, connectorID int, parameters map[string]any) (*model.ValidationResult, error) {
	if _, err := auth.Require(ctx, auth.ValidateParameters); err != nil {
		return nil, err
	}
	c, err := r.connector(ctx, connectorID)
	if err != nil {
		return nil, err
	}
	if parameters == nil {
		parameters = map[string]any{}
	}
	return &model.ValidationResult{Parameters: parameters, Errors: itemsync.ValidateCredentials(c, parameters)}, nil
}

// nonNil makes empty lists render as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func joinTypes() string {
	names := make([]string, len(model.ConnectorTypes))
	for i, t := range model.ConnectorTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}
