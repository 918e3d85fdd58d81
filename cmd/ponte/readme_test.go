package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ponte/webhooks"
)

// The Node verification snippet of docs/webhooks.md, run as printed on the page's own test
// vector: true at the vector's time, false now (the five-minute replay window), false for
// another body.
func TestREADMEWebhookSnippet(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## Verifying a delivery\n.*?```js\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatal("docs/webhooks.md has no js block under ## Verifying a delivery")
	}
	script := string(m[1]) + `
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const headers = {'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330',
  'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='};
const body = '{"test": 2432232314}';
console.log([verify(secret, headers, body, 1614265330), verify(secret, headers, body),
  verify(secret, headers, '{"test": 2432232315}', 1614265330)].join(' '));
`
	out, err := exec.Command("node", "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "true false false" {
		t.Fatalf("the snippet on its vector (at its time, now, another body): %s, want true false false", got)
	}
}

// docs/webhooks.md names every event a webhook may subscribe to, as the service accepts them.
func TestREADMEEventNames(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range webhooks.Events {
		if !strings.Contains(string(page), "`"+ev+"`") {
			t.Errorf("docs/webhooks.md does not name the event %s", ev)
		}
	}
}

// Users do not have the specification the service was built from, so the README and the
// pages of docs/, the GraphQL descriptions (GraphiQL's documentation) and the error table
// cite no section of it.
func TestNoSpecSectionNumbers(t *testing.T) {
	t.Parallel()
	cite := regexp.MustCompile(`(?i)\b(sections?|spec) [0-9]+(\.[0-9]+)*`)
	for _, f := range append(docFiles(t), "schema.graphqls", "model/codes.go") {
		b, err := os.ReadFile("../../" + f)
		if err != nil {
			t.Fatal(err)
		}
		markdown := strings.HasSuffix(f, ".md")
		for i, line := range strings.Split(string(b), "\n") {
			text := strings.TrimSpace(line)
			if strings.HasPrefix(text, "#") && !markdown || strings.HasPrefix(text, "//") {
				continue // comments are for maintainers, who have the document
			}
			if m := cite.FindString(text); m != "" {
				t.Errorf("%s:%d cites %q: %s", f, i+1, m, text)
			}
		}
	}
}

// docFiles lists the documentation, relative to the repository's root: the README and
// every page of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("docs/ holds %d pages: is the repository's root ../..?", len(pages))
	}
	files := []string{"README.md"}
	for _, p := range pages {
		files = append(files, "docs/"+filepath.Base(p))
	}
	return files
}

func readDoc(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
