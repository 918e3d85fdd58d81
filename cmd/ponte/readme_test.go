package main_test

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
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
