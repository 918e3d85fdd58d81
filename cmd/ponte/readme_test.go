package main_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"ponte/webhooks"
)

// README's Node verification snippet, run as printed on README's own test vector: true at
// the vector's time, false now (the five-minute replay window), false for another body.
func TestREADMEWebhookSnippet(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\\*\\*Verifying a delivery\\*\\*.*?```js\\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no js block under **Verifying a delivery**")
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
		t.Fatalf("README's snippet on its vector (at its time, now, another body): %s, want true false false", got)
	}
}

// README names every event a webhook may subscribe to, as the service accepts them.
func TestREADMEEventNames(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## Webhooks\n(.*?)\n## ").FindSubmatch(readme)
	if section == nil {
		t.Fatal("README has no Webhooks section")
	}
	for _, ev := range webhooks.Events {
		if !strings.Contains(string(section[1]), "`"+ev+"`") {
			t.Errorf("README's Webhooks section does not name the event %s", ev)
		}
	}
}

// Users do not have the specification the service was built from, so README, the GraphQL
// descriptions (GraphiQL's documentation) and the error table cite no section of it.
func TestNoSpecSectionNumbers(t *testing.T) {
	t.Parallel()
	cite := regexp.MustCompile(`(?i)\b(sections?|spec) [0-9]+(\.[0-9]+)*`)
	for _, f := range []string{"../../README.md", "../../schema.graphqls", "../../model/codes.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			text := strings.TrimSpace(line)
			if strings.HasPrefix(text, "#") && f != "../../README.md" || strings.HasPrefix(text, "//") {
				continue // comments are for maintainers, who have the document
			}
			if m := cite.FindString(text); m != "" {
				t.Errorf("%s:%d cites %q: %s", f, i+1, m, text)
			}
		}
	}
}
