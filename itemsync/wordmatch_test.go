package itemsync

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// containsFirst is the rule matching wordMatcher must agree with: each rule's words tried
// with strings.Contains, rules in order.
func containsFirst(text string, rules []rule) string {
	for _, r := range rules {
		for _, w := range r.words {
			if strings.Contains(text, w) {
				return r.category
			}
		}
	}
	return ""
}

// TestWordMatcherAgreesWithContains draws texts from the categorizer's own words and
// random text, and random rule lists (overlapping words, one- and zero-byte words), and
// checks the matcher finds the first rule Contains finds.
func TestWordMatcherAgreesWithContains(t *testing.T) {
	var words []string
	for _, r := range append(append([]rule{}, descriptionRules...), merchantCategories...) {
		words = append(words, r.words...)
	}
	piece := rapid.OneOf(rapid.SampledFrom(words), rapid.StringMatching(`[A-Z0-9 &+.*]{0,8}`), rapid.String())
	text := rapid.Custom(func(t *rapid.T) string {
		return " " + strings.Join(rapid.SliceOfN(piece, 0, 6).Draw(t, "pieces"), rapid.SampledFrom([]string{"", " "}).Draw(t, "sep")) + " "
	})
	rapid.Check(t, func(t *rapid.T) {
		s := text.Draw(t, "text")
		for _, c := range []struct {
			name  string
			rules []rule
			m     *wordMatcher
		}{{"description", descriptionRules, descriptionWords}, {"merchant", merchantCategories, merchantWords}} {
			if got, want := c.m.match(s), containsFirst(s, c.rules); got != want {
				t.Fatalf("%s rules on %q: matcher %q, Contains %q", c.name, s, got, want)
			}
		}
		var rules []rule
		for i, ws := range rapid.SliceOfN(rapid.SliceOfN(rapid.OneOf(rapid.SampledFrom(words), rapid.StringMatching(`[A-C ]{0,3}`)), 1, 4), 0, 8).Draw(t, "rules") {
			rules = append(rules, rule{words: ws, category: string(rune('a' + i))})
		}
		if got, want := newWordMatcher(rules).match(s), containsFirst(s, rules); got != want {
			t.Fatalf("rules %v on %q: matcher %q, Contains %q", rules, s, got, want)
		}
	})
}
