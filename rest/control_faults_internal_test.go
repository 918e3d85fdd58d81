package rest

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFaultLimitGroups keeps limitGroups, the limits an injected 429 announces, equal to
// the routes server.go mounts behind a rate limit: a limit added there and not here would
// have injected 429s announce the default instead of the route's own.
func TestFaultLimitGroups(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`rateLimit\("([a-z-]+)"\)[^\n]*?\)\.\s*(Get|Post|Put|Patch|Delete)\("([^"]+)"`)
	found := map[string]string{}
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		found[strings.ToUpper(m[2])+" "+m[3]] = m[1]
	}
	if len(found) < 7 {
		t.Fatalf("found %d rate-limited routes in server.go: the pattern no longer reads its lines", len(found))
	}
	for route, group := range found {
		if limitGroups[route] != group {
			t.Errorf("server.go limits %s by %q; limitGroups says %q", route, group, limitGroups[route])
		}
	}
	for route := range limitGroups {
		if found[route] == "" {
			t.Errorf("limitGroups has %s, which server.go does not limit", route)
		}
	}
}
