package payments

// The PIX side of an intent: its end-to-end id, the BR Code the payer pays with, and the
// charge a dynamic code's location serves.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/brdocs"
	"ponte/db"
	"ponte/model"
)

// endToEndID is a PIX end-to-end identifier: E, the payer institution's ISPB, the minute
// (UTC), and eleven random characters.
//
// It reads in tx: a read on the pool while the transaction holds a request's lock waits for
// a connection that the transactions queued on the same lock may all hold (50 racing
// intents on one request did, with a pool of 40).
func (e *Engine) endToEndID(ctx context.Context, tx *db.Tx, connectorID int, t time.Time) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 11)
	for i := range b {
		b[i] = alnum[rand.IntN(len(alnum))]
	}
	ispb := "00000000"
	if inst, err := tx.PaymentInstitutionByIndex(ctx, connectorID); err == nil {
		ispb = inst.Ispb
	}
	return fmt.Sprintf("E%s%s%s", ispb, t.UTC().Format("200601021504"), b)
}

// pixData is the BR Code a PIX-method intent is paid with: dynamic codes point at this
// service's payload location and are single use; static ones name the recipient's key.
func (e *Engine) pixData(ctx context.Context, p *db.PaymentRequestRow, n *db.PaymentIntentRow) (*model.PixData, error) {
	code := BRCode{Amount: p.Amount, MerchantName: "Ponte", MerchantCity: "SAO PAULO", TxID: strings.ReplaceAll(n.ID.String(), "-", "")[:25]}
	if p.Description != nil {
		code.Description = brdocs.EMVText(*p.Description, 40)
	}
	switch {
	case p.PixQrCode != nil:
		return &model.PixData{Qr: QRDataURL(p.PixQrCode.Payload), Value: p.PixQrCode.Payload}, nil
	case p.RecipientID != nil:
		r, err := e.payee(ctx, p)
		if err != nil {
			return nil, err
		}
		code.MerchantName = r.Name
		code.Key = r.TaxNumber
		if r.PixKey != nil {
			code.Key = *r.PixKey
		}
	}
	if n.IsDynamicPix {
		code.Dynamic = true
		u, err := url.Parse(e.cfg.BaseURL)
		if err != nil {
			return nil, err
		}
		code.URL = u.Host + "/payments/pix/" + n.ID.String()
		code.Description = ""
	}
	if err := code.Fits(); err != nil {
		return nil, model.Fail(model.CodePaymentFeatureNotSupported, "This payment cannot be paid by PIX code: %v. For a dynamic code, serve the service under a shorter PONTE_BASE_URL host.", err)
	}
	v := code.Encode()
	return &model.PixData{Qr: QRDataURL(v), Value: v}, nil
}

// PixLocation is the charge behind a dynamic PIX intent's code: single use, so it stops
// being payable once the intent ends.
func (e *Engine) PixLocation(ctx context.Context, intentID uuid.UUID) (*model.PixCharge, error) {
	n, found, err := e.db.PaymentIntent(ctx, uuid.Nil, intentID, false)
	if err != nil {
		return nil, err
	}
	if !found || !n.IsDynamicPix {
		return nil, model.Fail(model.CodePaymentIntentNotFound, "No dynamic PIX charge %s.", intentID)
	}
	p, found, err := e.db.PaymentRequest(ctx, uuid.Nil, n.RequestID, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "The payment request of charge %s was deleted.", intentID)
	}
	c := &model.PixCharge{Txid: strings.ReplaceAll(n.ID.String(), "-", "")[:25], Status: "ATIVA"}
	c.Calendario.Criacao = model.NewTime(n.CreatedAt).String()
	c.Calendario.Expiracao = int(e.cfg.AuthorizationTimeout / time.Second)
	c.Valor.Original = fmt.Sprintf("%.2f", p.Amount)
	if p.Description != nil {
		c.SolicitacaoPagador = *p.Description
	}
	if code, err := ParseBRCode(n.PixData.Value); err == nil {
		c.Chave = code.Key
	}
	if p.RecipientID != nil {
		if r, err := e.payee(ctx, p); err == nil && r != nil {
			c.Chave = r.TaxNumber
			if r.PixKey != nil {
				c.Chave = *r.PixKey
			}
		}
	}
	switch {
	case n.Status == PaymentCompleted:
		c.Status = "CONCLUIDA"
	case !n.Active:
		c.Status = "REMOVIDA_PELO_PSP"
	}
	return c, nil
}
