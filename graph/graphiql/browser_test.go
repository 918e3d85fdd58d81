//go:build browser

package graphiql_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"ponte/graph/graphiql"
)

// TestRendersInBrowser loads the page in headless Chromium with no network but loopback:
// GraphiQL only renders if React and GraphiQL came from the embedded assets.
func TestRendersInBrowser(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed (apt-get install chromium): the GraphiQL browser test needs it")
	}
	mux := http.NewServeMux()
	gi := graphiql.Handler("/graphiql", "/graphql")
	mux.Handle("/graphiql", gi)
	mux.Handle("/graphiql/", gi)
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"errors":[{"message":"no schema in this test"}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless=new", "--no-sandbox", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+t.TempDir(), "--virtual-time-budget=10000", "--dump-dom", srv.URL+"/graphiql?apiKey=k")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	dom := string(out)
	if !strings.Contains(dom, "graphiql-container") {
		t.Fatalf("GraphiQL did not render; DOM:\n%.2000s", dom)
	}
	if strings.Contains(dom, "Loading GraphiQL") {
		t.Fatal("the loading placeholder is still there")
	}
}
