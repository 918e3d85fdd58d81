package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"ponte/model"
)

// The bad-input scan's values (badinput_test.go sends them to every route), shared with
// the fuzz targets below as seeds.
var (
	// BadURLValues are path segments and query values, already escaped for a URL.
	BadURLValues = []string{"%00", "a%00b", "%ff%fe", "%c3%28", strings.Repeat("a", 9000), "99999999999999999999", "9223372036854775807",
		"-9223372036854775809", "2147483648", "1e309", "-1", "0", "", "x,%00", "%e2%80%ae", "..%2f..%2f", "%zz", "a;b"}
	// BadJSONValues are raw JSON values for any field of a body.
	BadJSONValues = []string{`"\u0000"`, `"a\u0000b"`, "\"\xff\xfe\"", `"\ud800"`, `"` + strings.Repeat("x", 70000) + `"`, `1e309`, `-1e309`,
		`99999999999999999999`, `9223372036854775807`, `2147483648`, `1e12`, `-1`, `0`, `0.000000001`, `10.005`, `1e300`, `"NaN"`, `"Infinity"`,
		`{}`, `[]`, `true`, `null`, `"1"`, `""`, `[{"\u0000":"\u0000"}]`, `{"\u0000":"x"}`, `[1,2,3]`, `{"a":{"b":{"c":[]}}}`}
)

// clientError fails unless err is a documented 4xx error with a code.
func clientError(t *testing.T, err error) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Status() < 400 || e.Status() >= 500 || e.Code.String() == "" || e.Message == "" {
		t.Fatalf("not a client error: %#v", err)
	}
}

// cleanStrings fails if any string reachable from v (map keys included) holds a NUL byte
// or invalid UTF-8: what the edge lets through must be storable.
func cleanStrings(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	check := func(s, where string) {
		if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			t.Fatalf("%s holds %q after the edge accepted the body", where, s)
		}
	}
	switch v.Kind() {
	case reflect.String:
		check(v.String(), path)
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			cleanStrings(t, v.Elem(), path)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				cleanStrings(t, v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw JSON, read again by a decoder covered here
		}
		for i := 0; i < v.Len(); i++ {
			cleanStrings(t, v.Index(i), path+"[]")
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			cleanStrings(t, k, path+" key")
			cleanStrings(t, v.MapIndex(k), path+"."+k.String())
		}
	}
}

// FuzzQueryParsing reads a query string as every list endpoint does: the edge check, then
// the endpoint's parameters. Whatever it is, the answer is a value or a 400, and a query
// the edge lets through carries no NUL, invalid UTF-8 or overlong value.
func FuzzQueryParsing(f *testing.F) {
	for _, name := range []string{"page", "pageSize", "name", "ids", "from", "itemId", "sandbox", "types", "bogus", "%00"} {
		for _, v := range BadURLValues {
			f.Add(name + "=" + v)
		}
	}
	f.Add("page=2&pageSize=50&name=Ponte%20Bank&sandbox=true&types=PERSONAL_BANK,INVESTMENT")
	f.Add("ids=0b6f0b7e-6b6e-4a52-9c5e-2f6b7f1a0c11,0b6f0b7e-6b6e-4a52-9c5e-2f6b7f1a0c12&from=2024-01-01&itemId=0b6f0b7e-6b6e-4a52-9c5e-2f6b7f1a0c11")
	f.Fuzz(func(t *testing.T, raw string) {
		r := httptest.NewRequest(http.MethodGet, "/connectors", nil)
		r.URL.RawQuery = raw
		edgeErr := checkURL(r.URL)
		q := &query{}
		q.read(r, "page", "pageSize", "name", "ids", "from", "itemId", "sandbox", "types")
		page, size, name := q.integer("page"), q.integer("pageSize"), q.str("name")
		_, types, ids := q.boolean("sandbox"), q.list("types"), q.uuids("ids")
		_, _ = q.date("from"), q.uuid("itemId")
		if edgeErr != nil {
			clientError(t, edgeErr)
			return
		}
		if q.err != nil {
			clientError(t, q.err)
			return
		}
		for k, vals := range r.URL.Query() {
			for _, v := range append(vals, k) {
				if strings.IndexByte(v, 0) >= 0 || !utf8.ValidString(v) || len(v) > maxQueryValue {
					t.Fatalf("the edge let %q through", v)
				}
			}
		}
		if name != nil && strings.IndexByte(*name, 0) >= 0 {
			t.Fatalf("name %q", *name)
		}
		for _, ty := range types {
			if ty == "" || strings.IndexByte(ty, 0) >= 0 {
				t.Fatalf("types member %q", ty)
			}
		}
		for _, id := range ids {
			if _, err := parseUUID(id.String()); err != nil {
				t.Fatalf("id %v does not read back", id)
			}
		}
		_, _ = page, size
	})
}

// fuzzBody checks a body as the edge and the handler's decode see it: no panic, only
// client errors, and nothing that reaches the handler's input holds a string the edge
// should have refused.
func fuzzBody(t *testing.T, body []byte, decodeInto func(r *http.Request) (any, error)) {
	edgeErr := checkJSON(body)
	r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	v, err := decodeInto(r)
	if edgeErr != nil {
		clientError(t, edgeErr)
	}
	if err != nil {
		clientError(t, err)
		return
	}
	if edgeErr == nil {
		cleanStrings(t, reflect.ValueOf(v), "body")
	}
}

// seedBodies adds a valid body and, for each of its fields, the body with that field
// replaced by each bad JSON value.
func seedBodies(f *testing.F, valid string, fields ...string) {
	f.Add([]byte(valid))
	for _, field := range fields {
		for _, bad := range BadJSONValues {
			f.Add([]byte(`{"` + field + `":` + bad + `}`))
		}
	}
	for _, b := range []string{`{"\u0000":1}`, "{\"a\":\"\xff\"}", `[]`, `"x"`, `1`, `null`, `{`, "\x00", strings.Repeat("[", 100) + strings.Repeat("]", 100)} {
		f.Add([]byte(b))
	}
}

// FuzzDecodeItemBody is POST /items and PATCH /items/{id}: the body, then its parameters
// as an object or an encrypted string.
func FuzzDecodeItemBody(f *testing.F) {
	seedBodies(f, `{"connectorId":0,"parameters":{"user":"user-ok","password":"password-ok"},"webhookUrl":"https://hooks.example.com/x",`+
		`"clientUserId":"u1","oauthRedirectUri":"https://app.example.com/cb","products":["ACCOUNTS"],"avoidDuplicates":true}`,
		"connectorId", "parameters", "webhookUrl", "clientUserId", "oauthRedirectUri", "products", "avoidDuplicates")
	f.Add([]byte(`{"connectorId":0,"parameters":"bm90IGEgY2lwaGVydGV4dA=="}`))
	f.Add([]byte(`{"connectorId":0,"parameters":{"user":"a\u0000"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzBody(t, body, func(r *http.Request) (any, error) {
			var b itemBody
			if err := decode(r, &b); err != nil {
				return nil, err
			}
			params, enc, err := b.split()
			return []any{b, params, enc}, err
		})
	})
}

// FuzzDecodePaymentBody is the bodies of the payment endpoints: requests, automatic PIX
// terms and charges, intents, customers and recipients.
func FuzzDecodePaymentBody(f *testing.F) {
	seedBodies(f, `{"amount":10.5,"description":"Pedido","isSandbox":true,"callbackUrls":{"success":"https://a.example/ok"},`+
		`"schedule":{"type":"DAILY","startDate":"2030-01-01","occurrences":2},"fixedAmount":50,"firstPayment":{"amount":50},`+
		`"paymentRequestId":"0b6f0b7e-6b6e-4a52-9c5e-2f6b7f1a0c11","connectorId":5,"parameters":{"cpf":"11144477735"},`+
		`"name":"Ana","taxNumber":"11222333000181","account":{"branch":"0001","number":"1-2","type":"CHECKING_ACCOUNT"}}`,
		"amount", "description", "callbackUrls", "schedule", "fixedAmount", "firstPayment", "paymentRequestId", "connectorId", "parameters",
		"name", "taxNumber", "account", "pixQrCode", "date")
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzBody(t, body, func(*http.Request) (any, error) {
			var all []any
			for _, dst := range []any{&model.PaymentRequestInput{}, &model.PixQrPaymentRequestInput{}, &model.AutomaticPixRequestInput{},
				&model.AutomaticPixPaymentInput{}, &model.PaymentIntentInput{}, &model.PaymentCustomerInput{}, &model.PaymentRecipientInput{}} {
				if err := decode(httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body)), dst); err != nil {
					return nil, err
				}
				all = append(all, dst)
			}
			return all, nil
		})
	})
}

// tokenWalk is the reference for checkJSON: encoding/json's own tokens, decoded. It
// reports whether a key or string holds a NUL, the deepest nesting, the longest decoded key
// and string, and whether an object repeats a key under strings.EqualFold.
func tokenWalk(body []byte) (nul bool, depth, maxKey, maxString int, repeat bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var objs []bool      // per open container: is it an object
	var keys []bool      // per open object: is a key expected next
	var names [][]string // per open container: the object's keys so far
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		inObj := len(objs) > 0 && objs[len(objs)-1]
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				if inObj {
					keys[len(keys)-1] = true
				}
				objs, keys, names = append(objs, v == '{'), append(keys, true), append(names, nil)
				depth = max(depth, len(objs))
			} else {
				objs, keys, names = objs[:len(objs)-1], keys[:len(keys)-1], names[:len(names)-1]
			}
			continue
		case string:
			nul = nul || strings.IndexByte(v, 0) >= 0
			if inObj && keys[len(keys)-1] {
				keys[len(keys)-1] = false
				maxKey = max(maxKey, len(v))
				for _, k := range names[len(names)-1] {
					repeat = repeat || strings.EqualFold(k, v)
				}
				names[len(names)-1] = append(names[len(names)-1], v)
				continue
			}
			maxString = max(maxString, len(v))
		}
		if inObj {
			keys[len(keys)-1] = true
		}
	}
}

// FuzzEdgeJSON holds checkJSON's hand-written scan to the reference walk: it refuses a
// body with a NUL anywhere, a decoded string or key over its limit, nesting over the limit,
// or an object repeating a key in any case, and refuses nothing else (a string's length is
// counted as written, and an escape writes at most six bytes for each byte it stands for).
func FuzzEdgeJSON(f *testing.F) {
	seedBodies(f, `{"a":[1,"x",{"b":null}],"c":{"d":"\u00e9\\u0000\"","e":[]}}`, "a", "c", "d")
	f.Add([]byte(`{"k\u0000":1}`))
	f.Add([]byte(`["\\\u0000", "\\u0000", "\u0000\\"]`))
	f.Add([]byte(`{"a":"` + strings.Repeat(`\u00e9`, maxJSONString/6+1) + `"}`))
	f.Add([]byte(`{"` + strings.Repeat("k", maxJSONKey+1) + `":1}`))
	f.Add([]byte(strings.Repeat(`[`, maxJSONDepth) + strings.Repeat(`]`, maxJSONDepth)))
	f.Add([]byte(strings.Repeat(`[`, maxJSONDepth+1) + strings.Repeat(`]`, maxJSONDepth+1)))
	f.Add([]byte(`"` + strings.Repeat("k", maxJSONKey) + `"`))       // the longest body the fast path takes
	f.Add([]byte(`{"` + strings.Repeat("k", maxJSONKey-6) + `":1}`)) // a key at the limit
	f.Add([]byte(strings.Repeat(`[`, maxJSONDepth-1) + strings.Repeat(`]`, maxJSONDepth-1)))
	f.Add([]byte(`{"amount":10,"Amount":20}`))
	f.Add([]byte(`{"a":1,"a":`))
	f.Add([]byte(`{"a":[{"b":1},{"b":2}],"c":{"d":1,"\u0044":2},"x":"` + strings.Repeat("y", maxJSONKey) + `"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		err := checkJSON(body)
		if err != nil {
			clientError(t, err)
		}
		if !utf8.Valid(body) {
			if err == nil {
				t.Fatalf("accepted invalid UTF-8 %q", body)
			}
			return
		}
		if !json.Valid(body) {
			return // decode refuses it
		}
		if cannotBreakLimits(body) {
			if err := scanJSON(body); err != nil {
				t.Fatalf("%.200q skipped the scan, which refuses it: %v", body, err)
			}
		}
		nul, depth, maxKey, maxString, repeat := tokenWalk(body)
		mustRefuse := nul || depth > maxJSONDepth || maxKey > maxJSONKey || maxString > maxJSONString || repeat
		mayAccept := !nul && depth <= maxJSONDepth && 6*maxKey <= maxJSONKey && 6*maxString <= maxJSONString && !repeat
		if mustRefuse && err == nil {
			t.Fatalf("accepted %.200q (NUL %v, depth %d, key %d, string %d, repeated key %v)", body, nul, depth, maxKey, maxString, repeat)
		}
		if mayAccept && err != nil {
			t.Fatalf("refused %.200q: %v", body, err)
		}
		if err != nil && strings.Contains(err.Error(), "NUL") && !nul {
			t.Fatalf("%.200q: %v, but the reference finds no NUL", body, err)
		}
		if err != nil && strings.Contains(err.Error(), "key") && strings.Contains(err.Error(), "once") && !repeat {
			t.Fatalf("%.200q: %v, but the reference finds no repeated key", body, err)
		}
	})
}

// FuzzCheckQuery holds checkQuery, which walks a query string without building its map, to
// what it replaced: url.ParseQuery, then checkValues on the map. Both refuse the same
// strings; with one problem in the string they give the same message (with several, the
// map's order picked which one the old check named).
func FuzzCheckQuery(f *testing.F) {
	for _, v := range BadURLValues {
		f.Add("itemId=" + v)
		f.Add(v + "=1&b=2")
	}
	f.Add("a=1&&b=%2B+c&=x&d")
	f.Fuzz(func(t *testing.T, raw string) {
		got := checkQuery(raw)
		var want error
		if v, err := url.ParseQuery(raw); err != nil {
			want = invalid("The query string is malformed: %s.", err.Error())
		} else {
			want = checkValues("Query parameter", v)
		}
		if (got == nil) != (want == nil) {
			t.Fatalf("checkQuery(%q) = %v; ParseQuery and checkValues say %v", raw, got, want)
		}
		if got != nil && strings.Count(raw, "&") == 0 && got.Error() != want.Error() {
			t.Fatalf("checkQuery(%q) = %v; ParseQuery and checkValues say %v", raw, got, want)
		}
	})
}
