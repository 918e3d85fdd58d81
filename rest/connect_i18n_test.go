package rest_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode"

	"ponte/model"
	"ponte/sandbox"
)

// institutionsEnglish reads the Connect page's table of the institutions' words in English.
func institutionsEnglish(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile("connectpage/institutions-en.js")
	if err != nil {
		t.Fatal(err)
	}
	const start = "window.PONTE_INSTITUTIONS_EN = "
	i := strings.Index(string(src), start)
	j := strings.LastIndex(string(src), "};")
	if i < 0 || j < i {
		t.Fatalf("institutions-en.js does not assign %s{...};", start)
	}
	table := map[string]string{}
	if err := json.Unmarshal(src[i+len(start):j+1], &table); err != nil {
		t.Fatalf("institutions-en.js: the table is not plain JSON: %v", err)
	}
	return table
}

// sandboxWords are the words a person reads that the sandbox institutions send: each
// connector's credential parameters, and the prompts, actions and messages of the
// scenarios the sandbox users trigger.
func sandboxWords() []string {
	var words []string
	param := func(p model.CredentialParameter) {
		words = append(words, p.Label)
		for _, s := range []*string{p.AssistiveText, p.Instructions, p.ValidationMessage} {
			if s != nil {
				words = append(words, *s)
			}
		}
		// A placeholder is an example of the value ("000.000.000-00", "user-ok"), a word
		// only when it holds one ("8 dígitos").
		if p.Placeholder != nil && strings.Contains(*p.Placeholder, " ") && strings.IndexFunc(*p.Placeholder, unicode.IsLetter) >= 0 {
			words = append(words, *p.Placeholder)
		}
		for _, o := range p.Options {
			words = append(words, o.Label)
		}
	}
	for _, c := range sandbox.Connectors() {
		for _, p := range c.Credentials {
			param(p)
		}
	}
	users := []string{"user-ok", "user-ok-img", "user-ok-select", "user-ok-phone", "user-ok-qr", "user-ok-auth-pending",
		"user-account-need-actions-provider-message"}
	for _, c := range sandbox.Connectors() {
		for _, u := range users {
			s := sandbox.Choose(&c, map[string]string{"user": u, "password": sandbox.GoodPassword})
			if s.MFA != nil {
				param(*s.MFA)
			}
			if s.Action != nil {
				words = append(words, s.Action.Instructions)
			}
			if s.LoginError != nil && s.LoginError.ProviderMessage != nil {
				words = append(words, *s.LoginError.ProviderMessage)
			}
		}
	}
	return words
}

// TestConnectInstitutionsEnglish: with ?lang=en the Connect page shows the sandbox
// institutions' labels, hints, validation messages, options and prompts in English, from a
// table keyed by their Portuguese; every word the sandbox sends is in it (a new one must be
// added), and the table holds no entry the sandbox no longer sends.
func TestConnectInstitutionsEnglish(t *testing.T) {
	table := institutionsEnglish(t)
	sent := map[string]bool{}
	for _, w := range sandboxWords() {
		sent[w] = true
		if en, ok := table[w]; !ok || en == "" {
			t.Errorf("institutions-en.js has no English for the sandbox's %q", w)
		}
	}
	for pt := range table {
		if !sent[pt] {
			t.Errorf("institutions-en.js translates %q, which the sandbox does not send", pt)
		}
	}
}
