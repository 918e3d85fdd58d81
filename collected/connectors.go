package collected

import (
	"context"
	"slices"
	"strings"
	"time"

	"ponte/auth"
	"ponte/itemsync"
	"ponte/model"
)

// Connectors lists the connector catalogue, with health details when asked.
func (e *Engine) Connectors(ctx context.Context, filter *model.ConnectorFilter, healthDetails *bool, page, pageSize *int) (*model.ConnectorPage, error) {
	if _, err := auth.Require(ctx, auth.ReadConnectors); err != nil {
		return nil, err
	}
	p, limit, offset, err := model.PageArgs(page, pageSize)
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
	list, total, err := e.reads(ctx).Connectors(ctx, f, limit, offset)
	if err != nil {
		return nil, err
	}
	if err := e.fillHealth(ctx, list, healthDetails); err != nil {
		return nil, err
	}
	return &model.ConnectorPage{Total: total, TotalPages: model.TotalPages(total, limit), Page: p, Results: nonNil(list)}, nil
}

// Connector reads one connector, with health details when asked.
func (e *Engine) Connector(ctx context.Context, id int, healthDetails *bool) (*model.Connector, error) {
	if _, err := auth.Require(ctx, auth.ReadConnectors); err != nil {
		return nil, err
	}
	c, err := e.connector(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := e.fillHealth(ctx, []*model.Connector{c}, healthDetails); err != nil {
		return nil, err
	}
	return c, nil
}

func (e *Engine) connector(ctx context.Context, id int) (*model.Connector, error) {
	c, found, err := e.reads(ctx).Connector(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", id)
	}
	return c, nil
}

// healthWindow is the period health details describe (the official client's
// connectionRateLast6Hours and its siblings).
const healthWindow = 6 * time.Hour

// fillHealth adds health details when asked, and drops any stored ones otherwise. The
// figures come from the executions that finished in the last six hours.
func (e *Engine) fillHealth(ctx context.Context, list []*model.Connector, healthDetails *bool) error {
	want := healthDetails != nil && *healthDetails
	var stats map[int][2]int
	if want {
		var err error
		if stats, err = e.reads(ctx).ConnectorStats(ctx, time.Now().Add(-healthWindow)); err != nil {
			return err
		}
	}
	for _, c := range list {
		c.Health.Details = nil
		if want {
			c.Health.Details = healthDetailsOf(c.Health.Status, stats[c.ID])
		}
	}
	return nil
}

// healthDetailsOf turns a connector's executions in the window (finished, failed) into its
// health details: rates stay null until there were executions.
func healthDetailsOf(status model.HealthStatus, stats [2]int) *model.HealthDetails {
	d := &model.HealthDetails{}
	if total, failed := stats[0], stats[1]; total > 0 {
		d.ConnectionsLast6Hours = total
		errRate := 100 * float64(failed) / float64(total)
		okRate := 100 - errRate
		d.ErrorRateLast6Hours, d.ConnectionRateLast6Hours = &errRate, &okRate
	}
	if status == model.HealthOffline {
		msg := "The institution is not accepting connections at the moment."
		d.Error = &msg
	}
	return d
}

func joinTypes() string {
	names := make([]string, len(model.ConnectorTypes))
	for i, t := range model.ConnectorTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// ValidateParameters answers POST /connectors/{id}/validate: the connector's rules applied
// to the parameters, and the names of the parameters received with their values masked.
func (e *Engine) ValidateParameters(ctx context.Context, connectorID int, parameters map[string]any) (*model.ValidationResult, error) {
	if _, err := auth.Require(ctx, auth.ValidateParameters); err != nil {
		return nil, err
	}
	c, err := e.connector(ctx, connectorID)
	if err != nil {
		return nil, err
	}
	if parameters == nil {
		parameters = map[string]any{}
	}
	return &model.ValidationResult{Parameters: MaskParameters(parameters), Errors: itemsync.ValidateCredentials(c, parameters)}, nil
}

// CredentialMask stands for every non-empty credential value in an answer. Its length is
// fixed so that not even a value's length is told.
const CredentialMask = "********"

// MaskParameters is what an answer may show of submitted credentials: each name, with ""
// for a value left empty (or null) and CredentialMask for any other. Every connector
// parameter is a credential (a user name or a CPF identifies the account as much as the
// password does), and an answer may be logged or cached where a password must not be; the
// official client types the map as Record<string, string>.
func MaskParameters(parameters map[string]any) map[string]any {
	out := make(map[string]any, len(parameters))
	for name, v := range parameters {
		if v == nil || v == "" {
			out[name] = ""
		} else {
			out[name] = CredentialMask
		}
	}
	return out
}
