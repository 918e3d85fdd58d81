package rest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"ponte/collected"
	"ponte/testsupport"
)

// POST /connectors/{id}/validate and validateConnectorParameters never send a submitted
// credential back: the answer names each parameter received, its value masked.
func TestValidateNeverEchoesCredentials(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "validate-echo").APIKey
	token := env.Do(t, "POST", "/connect_token", key, map[string]any{}).Want(200).String("accessToken")

	cases := []struct {
		name      string
		connector int
		params    map[string]any
	}{
		{"valid", 0, map[string]any{"user": "user-ok", "password": "password-ok"}},
		{"broken rules", 0, map[string]any{"user": "u-7f2a9c", "password": "pw-8c1e55"}},
		{"mfa token", 1, map[string]any{"user": "user-ok", "password": "password-ok", "token": "654321"}},
		{"number", 0, map[string]any{"user": 4815162342, "password": "password-ok"}},
		{"unknown parameter", 0, map[string]any{"user": "user-ok", "password": "password-ok", "extra": "not-asked-5e7d"}},
		{"empty", 0, map[string]any{"user": "", "password": "password-ok"}},
		{"select and documents", 2, map[string]any{"cnpj": "12345678000195", "cpf": "12345678909", "password": "12345678", "profile": "master"}},
	}
	// noEcho checks an answer's parameters and that no submitted value appears anywhere in it.
	noEcho := func(t *testing.T, body []byte, parameters map[string]any, sent map[string]any) {
		t.Helper()
		for name, v := range sent {
			if s := fmt.Sprint(v); s != "" && strings.Contains(string(body), s) {
				t.Errorf("the answer shows %s's value %q: %s", name, s, body)
			}
			want := collected.CredentialMask
			if v == "" {
				want = ""
			}
			if got, ok := parameters[name]; !ok || got != want {
				t.Errorf("parameters[%s] = %v (present %v), want %q", name, got, ok, want)
			}
		}
		if len(parameters) != len(sent) {
			t.Errorf("parameters %v, want the %d names sent", parameters, len(sent))
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for caller, k := range map[string]string{"api key": key, "connect token": token} {
				r := env.Do(t, "POST", fmt.Sprintf("/connectors/%d/validate", tc.connector), k, tc.params).Want(200)
				var res struct {
					Parameters map[string]any `json:"parameters"`
				}
				r.JSON(&res)
				t.Run("REST "+caller, func(t *testing.T) { noEcho(t, r.Body, res.Parameters, tc.params) })
			}
			r := env.Do(t, "POST", "/graphql", key, map[string]any{
				"query":     fmt.Sprintf(`mutation($p: Map!) { validateConnectorParameters(connectorId: %d, parameters: $p) { parameters errors { code parameter message } } }`, tc.connector),
				"variables": map[string]any{"p": tc.params}}).Want(200)
			var g struct {
				Data struct {
					V struct {
						Parameters map[string]any `json:"parameters"`
					} `json:"validateConnectorParameters"`
				} `json:"data"`
				Errors []any `json:"errors"`
			}
			if err := json.Unmarshal(r.Body, &g); err != nil || len(g.Errors) > 0 {
				t.Fatalf("GraphQL answer %s (%v)", r.Body, err)
			}
			t.Run("GraphQL", func(t *testing.T) { noEcho(t, r.Body, g.Data.V.Parameters, tc.params) })
		})
	}
}
