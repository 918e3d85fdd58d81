package rest

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"ponte/model"
)

// FuzzParseQuery holds parseQuery to url.ParseQuery, which it replaced in the handlers: the
// same names, each with the same values in the same order, whatever the string.
func FuzzParseQuery(f *testing.F) {
	for _, raw := range []string{"", "itemId=1", "a=1&a=2&b", "a=1;b=2&c=3", "a%zz=1&b=%41", "+=+&%20=%2B", "&&a=&=b&", "ids=a,b&ids=c", "a==b"} {
		f.Add(raw)
	}
	for _, v := range BadURLValues {
		f.Add("x=" + v + "&" + v + "=y")
	}
	f.Fuzz(func(t *testing.T, raw string) {
		want, _ := url.ParseQuery(raw)
		got := url.Values{}
		for _, p := range parseQuery(nil, raw) {
			got[p.name] = append(got[p.name], p.value)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("parseQuery(%q) = %v, url.ParseQuery reads %v", raw, got, want)
		}
	})
}

// An endpoint names every unknown parameter once, sorted, and reads a parameter given
// twice as its last value, as it did with url.Values.
func TestQueryUnknownNames(t *testing.T) {
	for _, c := range []struct{ raw, err, itemID string }{
		{"itemId=a&itemId=b", "", "b"},
		{"zeta=1&itemId=a&alpha=2&zeta=3&alpha", `Unknown query parameter "alpha", "zeta"; this endpoint accepts: itemId, type.`, "a"},
		{"a;b=1&itemId=c", "", "c"},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/accounts?"+c.raw, nil)
		var q query
		q.read(r, "itemId", "type")
		got := ""
		if q.err != nil {
			got = q.err.(*model.Error).Message
		}
		if v, _ := q.raw("itemId"); got != c.err || v != c.itemID {
			t.Errorf("%q: error %q and itemId %q, want %q and %q", c.raw, got, v, c.err, c.itemID)
		}
	}
}
