package rest_test

import "net/url"

// The bad-input scan's entries for the SCR report: hostile values in place of the item id
// (the fixture's SCR item being the baseline) and of the report's id.
func scanCreditInfoRoutes(f map[string]string) map[string]scanRoute {
	return map[string]scanRoute{
		"GET /credit-information":      {query: []string{"itemId"}, base: url.Values{"itemId": {f["scrItem"]}}},
		"GET /credit-information/{id}": {ids: []string{"creditInfo"}},
	}
}
