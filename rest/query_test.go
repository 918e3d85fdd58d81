package rest

import (
	"net/url"
	"reflect"
	"testing"
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
