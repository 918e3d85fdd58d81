package graph

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"ponte/auth"
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
			return nil, model.BadRequest(model.CodeInvalidParameter, "types: %q is not a connector type; use %s.", t, joinTypes())
		}
	}
	for _, c := range f.Countries {
		if c != "BR" {
			return nil, model.BadRequest(model.CodeInvalidParameter, "countries: %q is not served; the only allowed value is BR.", c)
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
		return nil, model.NotFound(model.CodeConnectorNotFound, "Connector %d not found.", id)
	}
	return c, nil
}

// fillHealth adds health details when asked, and drops any stored ones otherwise.
func (r *Resolver) fillHealth(ctx context.Context, list []*model.Connector, healthDetails *bool) error {
	want := healthDetails != nil && *healthDetails
	for _, c := range list {
		c.Health.Details = nil
		if want {
			// Connection statistics come from item executions; until a connector has
			// any in the window, the rates are unknown (null) and the count is 0.
			c.Health.Details = &model.HealthDetails{}
			if c.Health.Status == model.HealthOffline {
				msg := "The institution is not accepting connections at the moment."
				c.Health.Details.Error = &msg
			}
		}
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
	return &model.ValidationResult{Parameters: parameters, Errors: ValidateCredentials(c, parameters)}, nil
}

// Validation error codes of POST /connectors/{id}/validate and CONNECTOR_VALIDATION_ERROR.
const (
	validationMissing = "001" // a required parameter is absent or empty
	validationInvalid = "002" // the value breaks the parameter's rule
)

// ValidateCredentials checks parameters against the connector's credential rules and
// returns one error per failing parameter, in the connector's credential order. MFA
// parameters are not required up front: the execution asks for them.
func ValidateCredentials(c *model.Connector, parameters map[string]any) []model.ValidationError {
	errs := []model.ValidationError{}
	for _, cred := range c.Credentials {
		raw, present := parameters[cred.Name]
		value, ok := credentialString(raw)
		if present && !ok {
			errs = append(errs, model.ValidationError{Code: validationInvalid, Parameter: cred.Name,
				Message: fmt.Sprintf("%s must be a string.", cred.Label)})
			continue
		}
		if value == "" {
			if !cred.Optional && !cred.MFA {
				errs = append(errs, model.ValidationError{Code: validationMissing, Parameter: cred.Name,
					Message: fmt.Sprintf("%s is required.", cred.Label)})
			}
			continue
		}
		if msg, bad := checkCredential(cred, value); bad {
			errs = append(errs, model.ValidationError{Code: validationInvalid, Parameter: cred.Name, Message: msg})
		}
	}
	return errs
}

func credentialString(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case float64: // a number field sent as a JSON number
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int:
		return strconv.Itoa(x), true
	default:
		return "", false
	}
}

func checkCredential(cred model.CredentialParameter, value string) (string, bool) {
	if cred.Type == model.CredentialSelect {
		for _, o := range cred.Options {
			if o.Value == value {
				return "", false
			}
		}
		return fmt.Sprintf("%s must be one of the listed options.", cred.Label), true
	}
	if cred.Validation != nil && *cred.Validation != "" {
		re, err := compiled(*cred.Validation)
		if err == nil && !re.MatchString(value) {
			if cred.ValidationMessage != nil && *cred.ValidationMessage != "" {
				return *cred.ValidationMessage, true
			}
			return fmt.Sprintf("%s is not in the expected format.", cred.Label), true
		}
	}
	return "", false
}

var regexps sync.Map // validation pattern → *regexp.Regexp

func compiled(pattern string) (*regexp.Regexp, error) {
	if re, ok := regexps.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	regexps.Store(pattern, re)
	return re, nil
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
