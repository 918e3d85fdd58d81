package itemsync

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"ponte/model"
)

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

// checkWebhookURL applies the webhook URL rules (section 2.12) to a resource's own
// webhookUrl, or accepts nothing.
func (e *Engine) checkWebhookURL(field string, v *string) error {
	if v == nil || *v == "" {
		return nil
	}
	return model.CheckEventURL(field, *v, e.cfg.AllowInsecureWebhooks)
}

// checkURL applies model.CheckRedirectURL to an optional redirect URI: nothing passes.
func checkURL(field string, v *string) error {
	if v == nil || *v == "" {
		return nil
	}
	return model.CheckRedirectURL(field, *v)
}
