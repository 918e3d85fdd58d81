// Package merchants is the merchant directory: companies by CNPJ, loaded from the Receita
// Federal's open data (import.go, receita.go) and read by GET /merchants and by every
// execution, which gives its transactions' merchants the directory's names, CNAE and
// category (cnae.go), so the two never disagree.
package merchants

import (
	"context"
	"strings"

	"ponte/auth"
	"ponte/brdocs"
	"ponte/db"
	"ponte/model"
)

// MaxLookup is how many CNPJs one lookup may ask for.
const MaxLookup = 100

// Engine answers lookups from the store.
type Engine struct{ db *db.DB }

// New returns the directory over store.
func New(store *db.DB) *Engine { return &Engine{db: store} }

// Normalize turns a CNPJ as people write it (12.ABC.345/01DE-35, bare, lower case) into its
// 14 bare characters in upper case, and reports whether they make a valid CNPJ.
func Normalize(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' || c == '/' || c == '-' || c == ' ':
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		default:
			b.WriteByte(c)
		}
		if b.Len() > 14 {
			return "", false
		}
	}
	n := b.String()
	return n, brdocs.ValidCNPJ(n)
}

// Lookup answers GET /merchants: each asked CNPJ once (by its normalized form), found, not
// found or invalid.
func (e *Engine) Lookup(ctx context.Context, cnpjs []string) (*model.MerchantLookup, error) {
	if _, err := auth.Require(ctx, auth.ReadCategories); err != nil {
		return nil, err
	}
	if len(cnpjs) == 0 {
		return nil, model.Fail(model.CodeInvalidParameter, "cnpjs is required: one to %d CNPJs, separated by commas.", MaxLookup)
	}
	if len(cnpjs) > MaxLookup {
		return nil, model.Fail(model.CodeInvalidParameter, "cnpjs lists %d CNPJs; at most %d may be asked at once.", len(cnpjs), MaxLookup)
	}
	out := &model.MerchantLookup{FoundMerchants: []*model.Merchant{}, NotFoundMerchants: []string{}, InvalidCnpjs: []string{}}
	seen := map[string]bool{}
	var valid []string
	for _, c := range cnpjs {
		n, ok := Normalize(c)
		if !ok {
			if !seen["\x00"+c] {
				seen["\x00"+c] = true
				out.InvalidCnpjs = append(out.InvalidCnpjs, shown(c))
			}
			continue
		}
		if !seen[n] {
			seen[n] = true
			valid = append(valid, n)
		}
	}
	found, err := e.db.MerchantsByCNPJ(ctx, valid)
	if err != nil {
		return nil, err
	}
	byCNPJ := make(map[string]*model.Merchant, len(found))
	for _, m := range found {
		byCNPJ[m.CNPJ] = Of(m)
	}
	for _, n := range valid {
		if m, ok := byCNPJ[n]; ok {
			out.FoundMerchants = append(out.FoundMerchants, m)
		} else {
			out.NotFoundMerchants = append(out.NotFoundMerchants, n)
		}
	}
	return out, nil
}

// shown is an invalid entry as the answer repeats it: at most 32 bytes of it, and only
// printable ASCII (a NUL or a stray byte would only make the list harder to read).
func shown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 32; i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// Of is a directory row as transactions and GET /merchants show it: the trade name, or
// the registered name when the establishment has none, and the category of its CNAE.
func Of(m db.DirectoryMerchant) *model.Merchant {
	out := &model.Merchant{Name: m.TradeName, BusinessName: m.BusinessName, CNPJ: m.CNPJ}
	if out.Name == "" {
		out.Name = m.BusinessName
	}
	if m.CNAE != "" {
		cnae := m.CNAE
		out.CNAE = &cnae
		if c, ok := CategoryOf(cnae); ok {
			label := c.Label
			out.Category = &label
		}
	}
	return out
}

// Directory reads the directory for an execution, inside its transaction.
type Directory interface {
	MerchantsByCNPJ(ctx context.Context, cnpjs []string) ([]db.DirectoryMerchant, error)
}

// Enrich replaces each transaction's merchant found in the directory by the directory's
// (name, registered name, CNAE, category) and returns the category id each found CNPJ's
// CNAE gives, for the categorizer. One query for the whole batch.
func Enrich(ctx context.Context, dir Directory, txs []model.Transaction) (map[string]string, error) {
	// A history names few merchants many times: each written form is normalized once.
	normal, asked := map[string]string{}, map[string]bool{}
	var cnpjs []string
	for i := range txs {
		m := txs[i].Merchant
		if m == nil {
			continue
		}
		if _, done := normal[m.CNPJ]; done {
			continue
		}
		n, ok := Normalize(m.CNPJ)
		if !ok {
			n = ""
		}
		normal[m.CNPJ] = n
		if n != "" && !asked[n] {
			asked[n] = true
			cnpjs = append(cnpjs, n)
		}
	}
	found, err := dir.MerchantsByCNPJ(ctx, cnpjs)
	if err != nil || len(found) == 0 {
		return nil, err
	}
	byCNPJ := make(map[string]*model.Merchant, len(found))
	categories := map[string]string{}
	for _, m := range found {
		byCNPJ[m.CNPJ] = Of(m)
		if c, ok := CategoryOf(m.CNAE); ok {
			categories[m.CNPJ] = c.CategoryID
		}
	}
	for i := range txs {
		if m := txs[i].Merchant; m != nil {
			if d, ok := byCNPJ[normal[m.CNPJ]]; ok {
				copied := *d
				txs[i].Merchant = &copied
			}
		}
	}
	return categories, nil
}
