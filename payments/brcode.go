package payments

import (
	"encoding/base64"
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"ponte/brdocs"
)

// BRCode is a PIX BR Code (brdocs.BRCode, which does its arithmetic) with the amount in
// reais, as the API's model carries amounts.
type BRCode struct {
	Dynamic      bool
	Key          string // static codes
	URL          string // dynamic codes, without the scheme
	Description  string
	Amount       float64 // 0: the payer types the amount
	MerchantName string
	MerchantCity string
	TxID         string // "***" when the receiver does not reconcile by id
}

// doc is the code in centavos. The amount is read as its two-decimal text, the form the
// payload writes, so the code says what the API showed (amounts reaching here were
// checked by checkAmount: two decimals at most).
func (c BRCode) doc() brdocs.BRCode {
	cents, _ := strconv.ParseInt(strings.Replace(strconv.FormatFloat(c.Amount, 'f', 2, 64), ".", "", 1), 10, 64)
	return brdocs.BRCode{Dynamic: c.Dynamic, Key: c.Key, URL: c.URL, Description: c.Description, Cents: cents,
		MerchantName: c.MerchantName, MerchantCity: c.MerchantCity, TxID: c.TxID}
}

// Fits reports whether the key or URL fits the payload; Encode needs it to.
func (c BRCode) Fits() error { return c.doc().Fits() }

// Encode writes the payload with its CRC (brdocs.BRCode.Encode).
func (c BRCode) Encode() string { return c.doc().Encode() }

// ParseBRCode reads and checks a payload: structure, CRC, and the fields a PIX payment
// needs. Its errors are sentences for the caller.
func ParseBRCode(s string) (*BRCode, error) {
	d, err := brdocs.ParseBRCode(s)
	if err != nil {
		return nil, err
	}
	return &BRCode{Dynamic: d.Dynamic, Key: d.Key, URL: d.URL, Description: d.Description, Amount: float64(d.Cents) / 100,
		MerchantName: d.MerchantName, MerchantCity: d.MerchantCity, TxID: d.TxID}, nil
}

// QRDataURL renders a payload as a PNG QR code, inline, so pages need no image host.
func QRDataURL(payload string) string {
	png, err := qrcode.Encode(payload, qrcode.Medium, 256)
	if err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}
