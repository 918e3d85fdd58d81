package rest_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// cursorTargets are the list endpoints that take an after cursor, REST and GraphQL, each
// read by application B over B's own item and account. The three decoders behind them:
// the signed item cursor of GET /v2/items and itemConnection, the signed transaction
// cursor, and the signed document cursor of the other connections.
func cursorTargets(item, account string) []struct{ name, rest, query string } {
	const page = `{ pageInfo { hasNextPage endCursor } nodes { id } }`
	return []struct{ name, rest, query string }{
		{"GET /v2/items", "/v2/items?after=", ""},
		{"GET /v2/transactions", "/v2/transactions?accountId=" + account + "&after=", ""},
		{"itemConnection", "", `query($c: String) { itemConnection(first: 1, after: $c) ` + page + ` }`},
		{"transactions", "", `query($c: String) { transactions(accountId: "` + account + `", first: 1, after: $c) ` + page + ` }`},
		{"investments", "", `query($c: String) { investments(itemId: "` + item + `", first: 1, after: $c) ` + page + ` }`},
		{"loans", "", `query($c: String) { loans(itemId: "` + item + `", first: 1, after: $c) ` + page + ` }`},
	}
}

// FuzzCursorParams sends any string as the after cursor of every cursor list, with B's
// key. Properties: never a 5xx; a refusal is a 400 with the documented error body (REST)
// or an error whose extensions carry code 400 (GraphQL); a cursor the service handed B
// reads the next page; and no answer shows application A's item or accounts, whatever
// the cursor says.
func FuzzCursorParams(f *testing.F) {
	env := testsupport.New(f, func(s *testsupport.Setup) { s.Resolver.Limiter = auth.NewLimiter(map[string]int{}) })
	a, b := env.NewClient(f, "cursor-a"), env.NewClient(f, "cursor-b")
	ids := map[string]string{}
	for _, c := range []*testsupport.Client{a, b} {
		env.Exec(f, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, c.ID)
		for i := 0; i < 2; i++ {
			var it model.Item
			env.Do(f, "POST", "/items", c.APIKey, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).
				Want(200).JSON(&it)
			env.WaitItem(f, c.APIKey, it.ID.String(), testsupport.Settled)
			ids[c.ID+"item"] = it.ID.String()
			for _, acc := range env.AccountIDs(f, c.APIKey, it.ID.String()) {
				ids[c.ID+"account"] = acc
				if c == a {
					ids["A's account "+acc] = acc
				}
			}
			if c == a {
				ids["A's item "+it.ID.String()] = it.ID.String()
			}
		}
	}
	targets := cursorTargets(ids[b.ID+"item"], ids[b.ID+"account"])
	valid := map[string]string{} // cursor -> the list that handed it out
	for _, tg := range targets {
		if tg.query == "" {
			continue
		}
		r := env.GraphQL(f, b.APIKey, tg.query, nil)
		var conn struct{ PageInfo struct{ EndCursor string } }
		for _, v := range r.OK(f) {
			raw, _ := json.Marshal(v)
			_ = json.Unmarshal(raw, &conn)
		}
		if conn.PageInfo.EndCursor == "" {
			f.Fatalf("%s gave B no cursor to start from", tg.name)
		}
		valid[conn.PageInfo.EndCursor] = tg.name
		f.Add(conn.PageInfo.EndCursor)
	}
	f.Add("")
	f.Add("eyJjIjoiMjAyNC0wMS0wMVQwMDowMDowMFoiLCJpIjoiMDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAxIn0")
	f.Add("e30.AAAAAAAAAAAAAAAA")
	f.Add("\x00")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, cursor string) {
		for _, tg := range targets {
			var status int
			var body []byte
			if tg.rest != "" {
				status, body = azSend(t, env, "GET", tg.rest+url.QueryEscape(cursor), b.APIKey, nil, "")
				if st, code := azErrorCode(body); status != 200 && (status != 400 || st != 400 || code == "") {
					t.Fatalf("%s after=%q: %d %.300s", tg.name, cursor, status, body)
				}
			} else {
				var r *azGQLResult
				status, body, r = azGraphQLPost(t, env, b.APIKey, tg.query, map[string]any{"c": cursor})
				for _, e := range r.Errors {
					if code, _ := e.Extensions["code"].(float64); code != 400 || status >= 500 {
						t.Fatalf("%s after=%q: %d %.300s", tg.name, cursor, status, body)
					}
				}
				if valid[cursor] == tg.name && len(r.Errors) > 0 {
					t.Fatalf("%s refused the cursor it handed out, %q: %.300s", tg.name, cursor, body)
				}
			}
			for what, id := range ids {
				if strings.HasPrefix(what, "A's ") && strings.Contains(string(body), id) && !strings.Contains(cursor, id) {
					t.Fatalf("%s after=%q shows %s: %.300s", tg.name, cursor, what, body)
				}
			}
		}
	})
}
