package model

import (
	"fmt"
	"io"
	"strconv"

	"github.com/google/uuid"
)

// Centavos is an amount of money kept as whole centavos; on the wire it is a number in
// reais, as every amount of the interface, written from the integer so no float rounds it.
type Centavos int64

// MarshalJSON writes the amount in reais with two decimals (1234 → 12.34).
func (c Centavos) MarshalJSON() ([]byte, error) {
	n := int64(c)
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	frac := strconv.FormatInt(n%100, 10)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return []byte(sign + strconv.FormatInt(n/100, 10) + "." + frac), nil
}

// UnmarshalJSON reads an amount in reais with at most two decimals, as MarshalJSON writes it.
func (c *Centavos) UnmarshalJSON(b []byte) error {
	s := string(b)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	whole, frac := s, ""
	for i := range s {
		if s[i] == '.' {
			whole, frac = s[:i], s[i+1:]
			break
		}
	}
	if len(frac) > 2 || whole == "" {
		return strconv.ErrSyntax
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return err
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil || f < 0 {
		return strconv.ErrSyntax
	}
	v := w*100 + f
	if neg {
		v = -v
	}
	*c = Centavos(v)
	return nil
}

// CreditModality is the sum of one SCR modality (the Central Bank's modality code, e.g.
// "0203" crédito pessoal sem consignação).
type CreditModality struct {
	Code           string   `json:"code"`
	Name           string   `json:"name"`
	OperationCount int      `json:"operationCount"`
	Amount         Centavos `json:"amount"`
}

// CreditMaturity splits the reported debt by maturity bucket, as the SCR does.
type CreditMaturity struct {
	// Falling due (a vencer) in up to 30 days, 31 to 360 days, over 360 days.
	DueUpTo30Days  Centavos `json:"dueUpTo30Days"`
	Due31To360Days Centavos `json:"due31To360Days"`
	DueOver360Days Centavos `json:"dueOver360Days"`
	Overdue        Centavos `json:"overdue"`    // vencidos
	WrittenOff     Centavos `json:"writtenOff"` // prejuízo
	Total          Centavos `json:"total"`      // the sum of the five
}

// CreditInformation is the SCR report (Sistema de Informações de Crédito of the Central
// Bank) an item collected: every institution's credit operations for one CPF or CNPJ.
type CreditInformation struct {
	ID               uuid.UUID `json:"id"`
	ItemID           uuid.UUID `json:"itemId"`
	Document         string    `json:"document"`
	DocumentType     string    `json:"documentType"`   // CPF or CNPJ
	ReferenceMonth   string    `json:"referenceMonth"` // YYYY-MM, the last month the SCR closed
	InstitutionCount int       `json:"institutionCount"`
	OperationCount   int       `json:"operationCount"`
	// Coobligations are operations the holder guarantees for others (coobrigações);
	// their share is of the total plus them, in basis points (2500 = 25%).
	CoobligationsAmount   Centavos         `json:"coobligationsAmount"`
	CoobligationsShareBps int              `json:"coobligationsShareBps"`
	Modalities            []CreditModality `json:"modalities"`
	Maturity              CreditMaturity   `json:"maturity"`
	CreatedAt             Time             `json:"createdAt"`
	UpdatedAt             Time             `json:"updatedAt"`
}

// MarshalGQL writes the amount as GraphQL's Reais scalar: the same number as JSON.
func (c Centavos) MarshalGQL(w io.Writer) {
	b, _ := c.MarshalJSON()
	_, _ = w.Write(b)
}

// UnmarshalGQL is never reached (no input takes Reais) but gqlgen needs both halves.
func (c *Centavos) UnmarshalGQL(v any) error {
	return fmt.Errorf("Reais is an output scalar")
}
