package itemsync

import "strings"

// wordMatcher finds the first of a list of rules (in the list's order) one of whose words
// occurs in a text, as trying each rule's words with strings.Contains would, in one pass
// over the text: each position looks up the words starting with its two bytes. The
// categorizer runs it on every collected row, where hundreds of Contains calls per row
// cost more than the rest of the row's preparing.
type wordMatcher struct {
	rules []rule
	// heads gives, for a two-byte start, 1 + its index in groups (0: no word starts so).
	heads  []uint16
	groups [][]wordAt
	// short are the words under two bytes, checked with strings.Contains.
	short []wordAt
}

type wordAt struct {
	word string
	rule int
}

func newWordMatcher(rules []rule) *wordMatcher {
	m := &wordMatcher{rules: rules, heads: make([]uint16, 1<<16)}
	for i, r := range rules {
		for _, w := range r.words {
			if len(w) < 2 {
				m.short = append(m.short, wordAt{w, i})
				continue
			}
			k := uint16(w[0])<<8 | uint16(w[1])
			if m.heads[k] == 0 {
				m.groups = append(m.groups, nil)
				m.heads[k] = uint16(len(m.groups))
			}
			g := m.heads[k] - 1
			m.groups[g] = append(m.groups[g], wordAt{w, i})
		}
	}
	return m
}

// match is the category of the first rule with a word in text, or "".
func (m *wordMatcher) match(text string) string {
	best := len(m.rules)
	for _, w := range m.short {
		if w.rule < best && strings.Contains(text, w.word) {
			best = w.rule
		}
	}
	for i := 0; i+1 < len(text); i++ {
		h := m.heads[uint16(text[i])<<8|uint16(text[i+1])]
		if h == 0 {
			continue
		}
		for _, w := range m.groups[h-1] {
			if w.rule < best && strings.HasPrefix(text[i:], w.word) {
				best = w.rule
			}
		}
	}
	if best == len(m.rules) {
		return ""
	}
	return m.rules[best].category
}
