//go:build browser

package graphiql_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/graph/graphiql"
)

// TestRendersInBrowser loads the page in headless Chromium. The page's CSP only admits
// scripts from this origin, so GraphiQL can only render if React and GraphiQL came from the
// embedded assets. Opt-in (-tags browser) because it needs Chromium and takes seconds.
func TestRendersInBrowser(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not on PATH; install it (apt-get update && apt-get install -y chromium) to run the browser tests")
	}

	var mu sync.Mutex
	var apiKeys []string
	mux := http.NewServeMux()
	gi := graphiql.Handler("/graphiql", "/graphql")
	mux.Handle("/graphiql", gi)
	mux.Handle("/graphiql/", gi)
	// No schema is needed: the test looks at the DOM, and an error answer to the
	// introspection query still leaves GraphiQL rendered.
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		apiKeys = append(apiKeys, r.Header.Get("X-API-KEY"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"errors":[{"message":"no schema in this test"}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// The marker must come from React rendering, not from the page source itself.
	// (The page's own style names the class, so the marker is the element's attribute.)
	const rendered = `class="graphiql-container"`
	if _, body := fetch(t, srv, "GET", "/graphiql", nil); strings.Contains(string(body), rendered) {
		t.Fatalf("the static page already contains %s; the DOM check would prove nothing", rendered)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless=new", "--no-sandbox", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		// A private profile keeps parallel runs and the developer's own Chromium apart.
		"--user-data-dir="+t.TempDir(),
		"--virtual-time-budget=10000", "--dump-dom", srv.URL+"/graphiql?apiKey=test-key")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("chromium: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	if !strings.Contains(dom, rendered) {
		t.Fatalf("GraphiQL did not render; DOM:\n%.3000s", dom)
	}
	if strings.Contains(dom, "Loading GraphiQL") {
		t.Fatal("the loading placeholder is still there")
	}

	// GraphiQL introspects on start; the key from ?apiKey= must ride along.
	mu.Lock()
	defer mu.Unlock()
	if len(apiKeys) == 0 {
		t.Fatal("GraphiQL never called the endpoint")
	}
	for _, k := range apiKeys {
		if k != "test-key" {
			t.Fatalf("X-API-KEY sent as %q, want test-key", k)
		}
	}
}
