package main

import (
	"slices"
	"strings"
	"testing"
)

// PONTE_BROWSER_ORIGINS is compared byte for byte with browsers' Origin headers, so it is
// kept in their spelling, and an entry that is no origin stops start-up rather than never
// matching.
func TestBrowserOriginsFromEnvironment(t *testing.T) {
	t.Setenv("PONTE_BROWSER_ORIGINS", " HTTPS://App.Example.com/ ,http://127.0.0.1:5173,, ")
	c, err := loadConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://app.example.com", "http://127.0.0.1:5173"}; !slices.Equal(c.BrowserOrigins, want) {
		t.Errorf("origins %q, want %q", c.BrowserOrigins, want)
	}
	for _, bad := range []string{"*", "https://app.example.com/path", "app.example.com", "null", "ftp://x.example"} {
		t.Setenv("PONTE_BROWSER_ORIGINS", "https://ok.example,"+bad)
		if _, err := loadConfig(nil); err == nil || !strings.Contains(err.Error(), "PONTE_BROWSER_ORIGINS") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
