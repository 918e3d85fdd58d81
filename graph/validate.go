package graph

import (
	"net/url"

	"ponte/model"
)

// checkURL accepts an absolute http(s) URL, or nothing.
func checkURL(field string, v *string) error {
	if v == nil || *v == "" {
		return nil
	}
	u, err := url.Parse(*v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return model.BadRequest(model.CodeInvalidParameter, "%s must be an absolute http or https URL (got %q).", field, *v)
	}
	return nil
}
