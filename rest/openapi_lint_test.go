package rest_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"ponte/testsupport"
)

// /openapi.json passes Redocly's linter (installed from npm at a pinned version) with its
// recommended rules and no error: stricter than a validator (every operation says its
// security, the document names its server), which is what client generators and API
// portals read.
func TestOpenAPILint(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "openapi-lint")
	testsupport.NPMInstall(t, dir)
	env := testsupport.New(t)
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, env.Do(t, "GET", "/openapi.json", "", nil).Want(200).Body, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join("node_modules", ".bin", "redocly"), "lint", "--extends=recommended", "--format=json", doc)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.Output()
	var report struct {
		Totals   struct{ Errors, Warnings int } `json:"totals"`
		Problems []struct {
			RuleID   string `json:"ruleId"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"problems"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("redocly lint: %v (%v)\n%s", err, jerr, out)
	}
	for _, p := range report.Problems {
		if p.Severity == "error" {
			t.Errorf("%s: %s", p.RuleID, p.Message)
		}
	}
	if report.Totals.Errors > 0 || err != nil {
		t.Fatalf("redocly lint: %d errors (exit %v)", report.Totals.Errors, err)
	}
}
