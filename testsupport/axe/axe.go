// Package axe checks the page a browser test is on with axe-core, the accessibility engine
// browsers' own audits use, and fails the test on every serious or critical finding.
//
// axe-core comes from npm at the exact version of testdata/package-lock.json, installed by
// the first check; its source is evaluated in the page through the DevTools protocol, so a
// page never loads it from elsewhere and its Content-Security-Policy needs no exception.
package axe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"ponte/testsupport"
)

var (
	srcMu sync.Mutex
	src   string
)

// source installs axe-core (once per test binary, unless that fails) and returns its script.
func source(t testing.TB) string {
	t.Helper()
	srcMu.Lock()
	defer srcMu.Unlock()
	if src != "" {
		return src
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "testdata")
	testsupport.NPMInstall(t, dir)
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	src = string(b)
	return src
}

// Violation is one rule axe found broken, with the elements that break it.
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
		// FailureSummary says what is wrong with the element ("insufficient color
		// contrast of 3.2 (foreground color: ...").
		FailureSummary string `json:"failureSummary"`
	} `json:"nodes"`
}

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		// A target inside a shadow root or frame is a list of selectors.
		sel, _ := json.Marshal(n.Target)
		fmt.Fprintf(&b, "\n\t\t%s %s\n\t\t\t%s", sel, n.HTML, strings.ReplaceAll(n.FailureSummary, "\n", " "))
	}
	return b.String()
}

// Run runs axe on the document ctx's tab shows now and returns the violations of impact
// serious or critical (minor and moderate ones are advice, not failures).
func Run(t testing.TB, ctx context.Context) []Violation {
	t.Helper()
	script := source(t)
	// The page may have navigated since the last check: inject again where axe is missing.
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === "object"`))
	if err != nil {
		t.Fatalf("axe: %v", err)
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](script+"\n;undefined")); err != nil {
			t.Fatalf("axe: injecting axe-core: %v", err)
		}
	}
	// resultTypes keeps the answer small: passes and incomplete checks are not read.
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then((r) =>
		JSON.stringify(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: running: %v", err)
	}
	var vs []Violation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("axe: reading its answer: %v", err)
	}
	return vs
}

// Check runs axe on the page ctx's tab shows and fails the test (going on with it) listing
// each serious or critical violation; where names the page or step in the message.
func Check(t testing.TB, ctx context.Context, where string) {
	t.Helper()
	vs := Run(t, ctx)
	if len(vs) == 0 {
		return
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteString("\n\t" + v.String())
	}
	t.Errorf("axe: %d serious or critical accessibility violations on %s:%s", len(vs), where, b.String())
}
