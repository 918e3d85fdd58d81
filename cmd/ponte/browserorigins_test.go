package main

import (
	"slices"
	"strings"
	"testing"
)

// PONTE_BROWSER_ORIGINS: origins as browsers spell them, duplicates dropped; anything that
// is not an origin stops start-up naming the setting and the value.
func TestBrowserOriginsSetting(t *testing.T) {
	got, err := browserOrigins(" https://App.example.com ,http://localhost:3000/,https://app.example.com,")
	if err != nil || !slices.Equal(got, []string{"https://app.example.com", "http://localhost:3000"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	if got, err := browserOrigins(""); err != nil || got != nil {
		t.Fatalf("unset: %q, %v", got, err)
	}
	for _, bad := range []string{"*", "app.example.com", "https://app.example.com/path", "ftp://x.example", "https://a.example?x=1", "null"} {
		_, err := browserOrigins("https://ok.example," + bad)
		if err == nil || !strings.Contains(err.Error(), "PONTE_BROWSER_ORIGINS") || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
