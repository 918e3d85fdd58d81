package model

import (
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
)

// CategoryRule is a client application's rule (POST /categories/rules): transactions whose
// description matches take its category at every synchronization.
type CategoryRule struct {
	ID              uuid.UUID `json:"id"`
	Description     string    `json:"description"`
	CategoryID      string    `json:"categoryId"`
	Category        string    `json:"category"`
	ClientID        uuid.UUID `json:"clientId"`
	TransactionType *string   `json:"transactionType"`
	AccountType     *string   `json:"accountType"`
	MatchType       string    `json:"matchType"`
	CreatedAt       Time      `json:"createdAt"`
	// Folded is Description as rules compare it; Seq orders rules by age (newer is larger).
	Folded string `json:"-"`
	Seq    int64  `json:"-"`
}

// CategoryRuleInput is the body of POST /categories/rules.
type CategoryRuleInput struct {
	Description     string  `json:"description"`
	CategoryID      string  `json:"categoryId"`
	TransactionType *string `json:"transactionType,omitempty"`
	AccountType     *string `json:"accountType,omitempty"`
	MatchType       *string `json:"matchType,omitempty"`
}

// CategoryRulePage is the page-number envelope of category rules.
type CategoryRulePage struct {
	Total      int             `json:"total"`
	TotalPages int             `json:"totalPages"`
	Page       int             `json:"page"`
	Results    []*CategoryRule `json:"results"`
}

// CategoryOrigin says where a transaction's category came from: a rule (with its id), the
// client's PATCH (MANUAL), or the institution or the built-in categorizer (AUTOMATIC).
type CategoryOrigin struct {
	Type   string     `json:"type"`
	RuleID *uuid.UUID `json:"ruleId,omitempty"`
}

// The match types, and the category origins.
const (
	MatchExact      = "exact"
	MatchContains   = "contains"
	MatchStartsWith = "startsWith"
	MatchEndsWith   = "endsWith"

	OriginRule      = "RULE"
	OriginManual    = "MANUAL"
	OriginAutomatic = "AUTOMATIC"
)

// MatchRank is a match type's precedence: smaller wins (exact, then the anchored ones,
// then contains); -1 for an unknown type.
func MatchRank(matchType string) int {
	switch matchType {
	case MatchExact:
		return 0
	case MatchStartsWith, MatchEndsWith:
		return 1
	case MatchContains:
		return 2
	}
	return -1
}

// foldAccents maps the accented Latin letters to their plain forms; what rules compare is
// FoldText's output on both sides, so the table only has to be applied consistently.
var foldAccents = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a", "é", "e", "ê", "e", "è", "e", "ë", "e", "í", "i", "î", "i", "ì", "i", "ï", "i",
	"ó", "o", "ô", "o", "õ", "o", "ò", "o", "ö", "o", "ú", "u", "ù", "u", "û", "u", "ü", "u", "ç", "c", "ñ", "n",
	"Á", "A", "À", "A", "Â", "A", "Ã", "A", "Ä", "A", "É", "E", "Ê", "E", "È", "E", "Ë", "E", "Í", "I", "Î", "I", "Ì", "I", "Ï", "I",
	"Ó", "O", "Ô", "O", "Õ", "O", "Ò", "O", "Ö", "O", "Ú", "U", "Ù", "U", "Û", "U", "Ü", "U", "Ç", "C", "Ñ", "N",
)

// FoldText is a description as category rules compare it: accents removed, upper case,
// runs of spaces made one, no leading or trailing space. Go computes it for rules and
// transactions alike, so SQL only compares the folded strings.
func FoldText(s string) string {
	if isFolded(s) {
		return s // most institutions' descriptions: no copy for each collected row
	}
	return strings.Join(strings.Fields(strings.ToUpper(foldAccents.Replace(s))), " ")
}

// isFolded says whether FoldText would give s back unchanged: ASCII without lower case or
// white space other than single spaces between words.
func isFolded(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c >= 'a' && c <= 'z', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && s[i+1] == ' ':
			return false
		}
	}
	return true
}

// RuleMatches says whether a rule's folded description matches a folded transaction text.
func RuleMatches(matchType, folded, text string) bool {
	switch matchType {
	case MatchExact:
		return text == folded
	case MatchStartsWith:
		return strings.HasPrefix(text, folded)
	case MatchEndsWith:
		return strings.HasSuffix(text, folded)
	case MatchContains:
		return strings.Contains(text, folded)
	}
	return false
}

// RuleApplies says whether a rule decides a transaction of this type (DEBIT/CREDIT) on an
// account of this subtype.
func (r *CategoryRule) RuleApplies(text, txType, accountSubtype string) bool {
	if r.TransactionType != nil && *r.TransactionType != txType {
		return false
	}
	if r.AccountType != nil && *r.AccountType != accountSubtype {
		return false
	}
	return RuleMatches(r.MatchType, r.Folded, text)
}

// BestRule is the rule that decides a transaction, or nil: the most specific match type,
// then the longer description, then the newer rule.
func BestRule(rules []*CategoryRule, text, txType, accountSubtype string) *CategoryRule {
	var best *CategoryRule
	for _, r := range rules {
		if !r.RuleApplies(text, txType, accountSubtype) {
			continue
		}
		if best == nil || ruleBeats(r, best) {
			best = r
		}
	}
	return best
}

func ruleBeats(a, b *CategoryRule) bool {
	if ra, rb := MatchRank(a.MatchType), MatchRank(b.MatchType); ra != rb {
		return ra < rb
	}
	if la, lb := len(a.Folded), len(b.Folded); la != lb {
		return la > lb
	}
	return a.Seq > b.Seq
}
