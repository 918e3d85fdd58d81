package db

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// accountDocument dates a reported account from its stored row: createdAt always kept,
// updatedAt kept unless the content changed, and the row written only when its text is
// not already the document.
func TestAccountDocument(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 4, 5, 6, 7, 891_234_000, time.UTC)
	updated := time.Date(2026, 5, 6, 7, 8, 9, 999_999_000, time.UTC)
	now := time.Date(2026, 11, 26, 2, 0, 0, 123_456_000, time.FixedZone("BRT", -3*3600))
	balance := 10.5
	reported := model.Account{ID: uuid.MustParse("00000000-0000-0000-0000-000000000001"), Type: "BANK", Subtype: "CHECKING_ACCOUNT",
		Name: "Conta", Balance: &balance}
	stored := func(a model.Account, c, u time.Time) []byte {
		a.CreatedAt, a.UpdatedAt = model.NewTime(c), model.NewTime(u)
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	same := stored(reported, created, updated)
	// jsonb's text of the same document: spaced, keys in jsonb's order.
	var asMap map[string]any
	_ = json.Unmarshal(same, &asMap)
	sorted, err := json.Marshal(asMap)
	if err != nil {
		t.Fatal(err)
	}
	spaced := []byte(strings.NewReplacer(`":`, `": `, `,"`, `, "`).Replace(string(sorted)))
	moved := reported
	other := 99.0
	moved.Balance = &other
	const (
		createdText = "2026-03-04T05:06:07.891Z"
		updatedText = "2026-05-06T07:08:09.999Z"
		nowText     = "2026-11-26T05:00:00.123Z"
	)
	cases := []struct {
		name                    string
		account                 model.Account
		old                     *storedAccount
		write                   bool
		wantCreated, wantUpdate string
		wantUpdated             time.Time
	}{
		{"a new account", reported, nil, true, nowText, nowText, now},
		{"unchanged, stored as written", reported, &storedAccount{Data: same, Created: created, Updated: updated}, false, createdText, updatedText, updated},
		{"unchanged, stored in jsonb's form", reported, &storedAccount{Data: spaced, Created: created, Updated: updated}, true, createdText, updatedText, updated},
		{"changed", moved, &storedAccount{Data: same, Created: created, Updated: updated}, true, createdText, nowText, now},
		{"stored text that is not an account", reported, &storedAccount{Data: []byte(`{"id": 5`), Created: created, Updated: updated}, true, createdText, nowText, now},
	}
	for _, c := range cases {
		a := c.account
		old, found := storedAccount{}, c.old != nil
		if found {
			old = *c.old
		}
		doc, gotUpdated, write, err := accountDocument(&a, old, found, now)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var back model.Account
		if err := json.Unmarshal(doc, &back); err != nil {
			t.Fatalf("%s: the document is not JSON: %s", c.name, doc)
		}
		if write != c.write || !gotUpdated.Equal(c.wantUpdated) || back.CreatedAt.String() != c.wantCreated || back.UpdatedAt.String() != c.wantUpdate ||
			a.UpdatedAt.String() != c.wantUpdate || *back.Balance != *c.account.Balance || strings.Contains(string(doc), `": `) {
			t.Errorf("%s: write %v, updated_at %v, document %s; want write %v, updated_at %v, createdAt %s, updatedAt %s",
				c.name, write, gotUpdated, doc, c.write, c.wantUpdated, c.wantCreated, c.wantUpdate)
		}
	}
}
