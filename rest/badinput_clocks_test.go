package rest_test

// scanClockRoutes are the test clock routes (docs/test-clocks.md).
func scanClockRoutes(f map[string]string) map[string]scanRoute {
	return map[string]scanRoute{
		"POST /sandbox/test-clocks":              {body: map[string]any{"name": "scan", "frozenTime": "2031-01-01T00:00:00Z"}},
		"GET /sandbox/test-clocks":               {query: []string{"page", "pageSize"}},
		"GET /sandbox/test-clocks/{id}":          {ids: []string{"testClock"}},
		"POST /sandbox/test-clocks/{id}/advance": {ids: []string{"testClock"}, body: map[string]any{"frozenTime": "2031-01-01T01:00:00Z"}},
		"DELETE /sandbox/test-clocks/{id}":       {ids: []string{"testClock"}},
	}
}
