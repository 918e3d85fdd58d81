package model

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/google/uuid"
)

// AppendJSON appends t's document, byte for byte what json.Marshal(t) gives, without
// reflection, a Marshaler's re-compacting of each timestamp or an allocation per field.
// A first history encodes millions of documents on the core beside PostgreSQL's, where
// json.Marshal cost more than the database's own writing. TestTransactionAppendJSON
// fills every field of the types below by reflection and compares with json.Marshal, so a
// field added to them and not here fails it.
func (t *Transaction) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = appendUUID(b, t.ID)
	b = append(b, `,"accountId":`...)
	b = appendUUID(b, t.AccountID)
	b = append(b, `,"date":`...)
	b = appendTime(b, t.Date)
	b = append(b, `,"description":`...)
	b = appendString(b, t.Description)
	b = append(b, `,"descriptionRaw":`...)
	b = appendStringPtr(b, t.DescriptionRaw)
	b = append(b, `,"type":`...)
	b = appendString(b, t.Type)
	b = append(b, `,"amount":`...)
	if b, err = appendFloat(b, t.Amount); err != nil {
		return nil, err
	}
	b = append(b, `,"amountInAccountCurrency":`...)
	if b, err = appendFloatPtr(b, t.AmountInAccountCurrency); err != nil {
		return nil, err
	}
	b = append(b, `,"balance":`...)
	if b, err = appendFloatPtr(b, t.Balance); err != nil {
		return nil, err
	}
	b = append(b, `,"currencyCode":`...)
	b = appendString(b, t.CurrencyCode)
	b = append(b, `,"category":`...)
	b = appendStringPtr(b, t.Category)
	b = append(b, `,"categoryId":`...)
	b = appendStringPtr(b, t.CategoryID)
	if o := t.CategoryOrigin; o != nil {
		b = append(b, `,"categoryOrigin":{"type":`...)
		b = appendString(b, o.Type)
		if o.RuleID != nil {
			b = append(b, `,"ruleId":`...)
			b = appendUUID(b, *o.RuleID)
		}
		b = append(b, '}')
	}
	b = append(b, `,"status":`...)
	b = appendString(b, t.Status)
	b = append(b, `,"providerCode":`...)
	b = appendStringPtr(b, t.ProviderCode)
	b = append(b, `,"providerId":`...)
	b = appendStringPtr(b, t.ProviderID)
	b = append(b, `,"paymentData":`...)
	if b, err = t.PaymentData.appendJSON(b); err != nil {
		return nil, err
	}
	b = append(b, `,"creditCardMetadata":`...)
	if b, err = t.CreditCardMetadata.appendJSON(b); err != nil {
		return nil, err
	}
	b = append(b, `,"merchant":`...)
	if m := t.Merchant; m == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"name":`...)
		b = appendString(b, m.Name)
		b = append(b, `,"businessName":`...)
		b = appendString(b, m.BusinessName)
		b = append(b, `,"cnpj":`...)
		b = appendString(b, m.CNPJ)
		b = appendOptString(b, `,"cnae":`, m.CNAE)
		b = appendOptString(b, `,"category":`, m.Category)
		b = append(b, '}')
	}
	b = append(b, `,"operationType":`...)
	b = appendStringPtr(b, t.OperationType)
	b = append(b, `,"operationTypeAdditionalInfo":`...)
	b = appendStringPtr(b, t.OperationTypeAddInfo)
	b = append(b, `,"order":`...)
	b = strconv.AppendInt(b, int64(t.Order), 10)
	b = append(b, `,"createdAt":`...)
	b = appendTime(b, t.CreatedAt)
	b = append(b, `,"updatedAt":`...)
	b = appendTime(b, t.UpdatedAt)
	return append(b, '}'), nil
}

func (p *PaymentData) appendJSON(b []byte) ([]byte, error) {
	if p == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '{')
	start := len(b)
	b = p.Payer.appendJSON(b, `"payer":`)
	b = p.Receiver.appendJSON(sep(b, start), `"receiver":`)
	b = appendOptString(sep(b, start), `"receiverReferenceId":`, p.ReceiverReferenceID)
	b = appendOptString(sep(b, start), `"paymentMethod":`, p.PaymentMethod)
	b = appendOptString(sep(b, start), `"referenceNumber":`, p.ReferenceNumber)
	b = appendOptString(sep(b, start), `"reason":`, p.Reason)
	b = append(sep(b, start), `"boletoMetadata":`...)
	if m := p.BoletoMetadata; m == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"digitableLine":`...)
		b = appendStringPtr(b, m.DigitableLine)
		b = append(b, `,"barcode":`...)
		b = appendStringPtr(b, m.Barcode)
		var err error
		for _, f := range [...]struct {
			key string
			v   *float64
		}{{`,"baseAmount":`, m.BaseAmount}, {`,"penaltyAmount":`, m.PenaltyAmount}, {`,"interestAmount":`, m.InterestAmount}, {`,"discountAmount":`, m.DiscountAmount}} {
			if b, err = appendFloatPtr(append(b, f.key...), f.v); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// sep adds the comma before an object's next member when one was written since start.
// Writers of omitempty members start with the key, so sep comes before each.
func sep(b []byte, start int) []byte {
	if len(b) > start && b[len(b)-1] != ',' {
		return append(b, ',')
	}
	return b
}

func (p *PaymentParticipant) appendJSON(b []byte, key string) []byte {
	if p == nil {
		return b
	}
	b = append(b, key...)
	b = append(b, '{')
	start := len(b)
	if d := p.DocumentNumber; d != nil {
		b = append(b, `"documentNumber":{"type":`...)
		b = appendString(b, d.Type)
		b = append(b, `,"value":`...)
		b = appendString(b, d.Value)
		b = append(b, '}')
	}
	b = appendOptString(sep(b, start), `"name":`, p.Name)
	b = appendOptString(sep(b, start), `"accountNumber":`, p.AccountNumber)
	b = appendOptString(sep(b, start), `"branchNumber":`, p.BranchNumber)
	b = appendOptString(sep(b, start), `"routingNumber":`, p.RoutingNumber)
	b = appendOptString(sep(b, start), `"routingNumberISPB":`, p.RoutingNumberISPB)
	return append(unsep(b, start), '}')
}

// unsep drops a trailing comma sep left when no member followed.
func unsep(b []byte, start int) []byte {
	if len(b) > start && b[len(b)-1] == ',' {
		return b[:len(b)-1]
	}
	return b
}

func (c *CreditCardMetadata) appendJSON(b []byte) ([]byte, error) {
	if c == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '{')
	start := len(b)
	b = appendOptInt(b, `"installmentNumber":`, c.InstallmentNumber)
	b = appendOptInt(sep(b, start), `"totalInstallments":`, c.TotalInstallments)
	if c.TotalAmount != nil {
		var err error
		if b, err = appendFloat(append(sep(b, start), `"totalAmount":`...), *c.TotalAmount); err != nil {
			return nil, err
		}
	}
	b = appendOptInt(sep(b, start), `"payeeMCC":`, c.PayeeMCC)
	if c.PurchaseDate != nil {
		b = appendTime(append(sep(b, start), `"purchaseDate":`...), *c.PurchaseDate)
	}
	b = appendOptString(sep(b, start), `"billId":`, c.BillID)
	b = appendOptString(sep(b, start), `"cardNumber":`, c.CardNumber)
	b = appendOptString(sep(b, start), `"feeType":`, c.FeeType)
	b = appendOptString(sep(b, start), `"feeTypeAdditionalInfo":`, c.FeeTypeAdditionalInfo)
	b = appendOptString(sep(b, start), `"otherCreditsType":`, c.OtherCreditsType)
	b = appendOptString(sep(b, start), `"otherCreditsAdditionalInfo":`, c.OtherCreditsAdditionalInfo)
	b = appendOptString(sep(b, start), `"billForecastDate":`, c.BillForecastDate)
	return append(unsep(b, start), '}'), nil
}

func appendUUID(b []byte, id uuid.UUID) []byte {
	b = append(b, '"')
	var s [36]byte
	const hex = "0123456789abcdef"
	j := 0
	for i, c := range id {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s[j] = '-'
			j++
		}
		s[j], s[j+1] = hex[c>>4], hex[c&0xf]
		j += 2
	}
	return append(append(b, s[:]...), '"')
}

// appendTime writes t as Time.MarshalJSON does, digit by digit for the years TimeLayout
// writes with four digits (time's layout formatting was half of a document's cost).
func appendTime(b []byte, t Time) []byte {
	u := t.UTC()
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		b = append(b, '"')
		b = u.AppendFormat(b, TimeLayout)
		return append(b, '"')
	}
	hour, minute, sec := u.Clock()
	ms := u.Nanosecond() / 1e6
	var s [26]byte
	s[0] = '"'
	s[1], s[2], s[3], s[4] = byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10)
	s[5] = '-'
	s[6], s[7] = byte('0'+month/10), byte('0'+month%10)
	s[8] = '-'
	s[9], s[10] = byte('0'+day/10), byte('0'+day%10)
	s[11] = 'T'
	s[12], s[13] = byte('0'+hour/10), byte('0'+hour%10)
	s[14] = ':'
	s[15], s[16] = byte('0'+minute/10), byte('0'+minute%10)
	s[17] = ':'
	s[18], s[19] = byte('0'+sec/10), byte('0'+sec%10)
	s[20] = '.'
	s[21], s[22], s[23] = byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10)
	s[24], s[25] = 'Z', '"'
	return append(b, s[:]...)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// appendOptString writes an omitempty member: nothing when s is nil.
func appendOptString(b []byte, key string, s *string) []byte {
	if s == nil {
		return b
	}
	return appendString(append(b, key...), *s)
}

func appendOptInt(b []byte, key string, n *int) []byte {
	if n == nil {
		return b
	}
	return strconv.AppendInt(append(b, key...), int64(*n), 10)
}

// appendString writes s as encoding/json does. Text that needs no escape (printable
// ASCII other than " \ < > &, and valid UTF-8 other than U+2028 and U+2029) is copied;
// anything else, rare in transactions, is left to encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return appendStringSlow(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			return appendStringSlow(b, s)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendStringSlow(b []byte, s string) []byte {
	enc, _ := json.Marshal(s) // a string always encodes
	return append(b, enc...)
}

// appendFloat writes f as encoding/json writes a float64 (its shortest form, with an
// exponent only below 1e-6 or from 1e21, and no leading zero in a negative exponent).
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		_, err := json.Marshal(f)
		return nil, err
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

func appendFloatPtr(b []byte, f *float64) ([]byte, error) {
	if f == nil {
		return append(b, "null"...), nil
	}
	return appendFloat(b, *f)
}
