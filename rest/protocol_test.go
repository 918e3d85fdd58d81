package rest_test

import (
	"testing"

	"ponte/testsupport"
)

func TestProtocol(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "protocol").APIKey

	cases := []struct {
		name         string
		method, path string
		body         any
		headers      map[string]string
		status       int
		code         string
	}{
		{"unknown path", "GET", "/nope", nil, nil, 404, "NOT_FOUND"},
		{"wrong verb", "DELETE", "/connectors", nil, nil, 405, "METHOD_NOT_ALLOWED"},
		{"wrong verb on auth", "GET", "/auth", nil, nil, 405, "METHOD_NOT_ALLOWED"},
		{"accept excludes json", "GET", "/connectors", nil, map[string]string{"Accept": "text/html"}, 406, "NOT_ACCEPTABLE"},
		{"accept json q=0", "GET", "/connectors", nil, map[string]string{"Accept": "application/json;q=0, text/csv"}, 406, "NOT_ACCEPTABLE"},
		{"malformed json", "POST", "/connectors/0/validate", `{"user":`, nil, 400, "MALFORMED_JSON"},
		{"body not an object", "POST", "/connectors/0/validate", `[1,2]`, nil, 400, "INVALID_PARAMETER"},
		{"unknown query parameter", "GET", "/categories?foo=bar", nil, nil, 400, "INVALID_PARAMETER"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := env.DoHeaders(t, tc.method, tc.path, key, tc.body, tc.headers)
			r.WantError(tc.status, tc.code)
			if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Fatalf("content type %q", ct)
			}
		})
	}
	accepted := []map[string]string{
		{"Accept": "application/json"},
		{"Accept": "*/*"},
		{"Accept": "text/html, application/json;q=0.5"},
		{},
	}
	for _, h := range accepted {
		t.Run("accept "+h["Accept"], func(t *testing.T) {
			env.DoHeaders(t, "GET", "/connectors", key, nil, h).Want(200)
		})
	}
	t.Run("unknown body fields are ignored", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"clientUserId": "x", "surprise": 1}, "other": []int{1}}).Want(200)
	})
	t.Run("comma separated arrays", func(t *testing.T) {
		env.Do(t, "GET", "/connectors?types=PERSONAL_BANK,INVESTMENT&countries=BR", key, nil).Want(200)
	})
}
