package payments

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// A boleto this service issued is paid at most once, and only while it can be paid. Three
// places hold that, each in the transaction that acts:
//
//   - a request's creation claims the boleto its line names: one request that is not over
//     per boleto (ERROR, EXPIRED, CANCELED and deletion free it), the unique index
//     payment_requests_boleto_once the last word;
//   - a payer's attempt starts only while the boleto can be paid;
//   - settlement locks the boleto and checks it again before the payment completes, so a
//     boleto cancelled, paid by its PIX code or protested meanwhile fails the payment
//     (PAYMENT_REJECTED, request ERROR) and nothing is paid.

// ownBoletoBank reports whether a bank code is one this service issues boletos under (999
// when a connector has no code of its own; no bank has it).
func ownBoletoBank(bank string) bool {
	return bank == "999" || slices.Contains(slices.Collect(maps.Values(boletoBanks)), bank)
}

// ownBoletoCode parses a request's barcode when it is a line of this service.
func ownBoletoCode(p *model.BoletoPayment) (*BoletoCode, bool) {
	if p == nil {
		return nil, false
	}
	code, err := ParseBoletoLine(p.Barcode)
	if err != nil || !ownBoletoBank(code.Bank) {
		return nil, false
	}
	return code, true
}

// lockOwnBoleto locks the boleto a line of this service names: its nosso número is the
// free field's first 11 digits, and the line must be the boleto's own (a line made up with
// the boleto's nosso número and another amount names no boleto).
func lockOwnBoleto(ctx context.Context, tx *db.Tx, code *BoletoCode) (*db.BoletoRow, bool, error) {
	b, found, err := tx.LockBoletoByNossoNumero(ctx, code.FreeField[:11])
	if err != nil || !found || b.Barcode != code.Barcode() {
		return nil, false, err
	}
	return b, true, nil
}

// boletoUnpayable says why a boleto cannot be paid today, or "" when it can: it must be
// OPEN or OVERDUE, and not overdue past the protest delay (the daily sweep protests it; a
// payment before the sweep ran is refused all the same).
func (e *Engine) boletoUnpayable(ctx context.Context, b *db.BoletoRow) string {
	if b.Status != BoletoOpen && b.Status != BoletoOverdue {
		return fmt.Sprintf("Boleto %s is %s; only an OPEN or OVERDUE boleto can be paid.", b.NossoNumero, b.Status)
	}
	if protest := e.protestDays(); b.DueDate.Time.Before(e.today(ctx).AddDate(0, 0, -protest)) {
		return fmt.Sprintf("Boleto %s was due on %s and is overdue past the protest delay of %d days; it can no longer be paid.",
			b.NossoNumero, b.DueDate.Format(time.DateOnly), protest)
	}
	return ""
}

// claimOwnBoleto ties a new request (run by insertRequest) to the boleto this service
// issued that it pays. The boleto's row lock serializes two requests claiming it at once.
func (e *Engine) claimOwnBoleto(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	code, own := ownBoletoCode(p.Boleto)
	if !own {
		return nil // another bank's boleto: paid there
	}
	b, found, err := lockOwnBoleto(ctx, tx, code)
	if err != nil {
		return err
	}
	if !found {
		return model.Fail(model.CodeInvalidDigitableLine, "boleto.digitableLine carries bank code %s, which this service issues under, but no boleto it issued has this line.", code.Bank)
	}
	holder, holderClient, held, err := tx.BoletoHolder(ctx, b.ID)
	if err != nil {
		return err
	}
	if held {
		return boletoHeld(b, p.ClientID, holder, holderClient)
	}
	if why := e.boletoUnpayable(ctx, b); why != "" {
		return model.Fail(model.CodeBoletoNotPayable, "%s", why)
	}
	if err := tx.SetRequestBoleto(ctx, p.ID, b.ID); errors.Is(err, db.ErrBoletoHeld) {
		return model.Fail(model.CodeBoletoBeingPaid, "Boleto %s is paid by another payment request.", b.NossoNumero)
	} else if err != nil {
		return err
	}
	return nil
}

// boletoHeld is the refusal of a second request for a boleto. The holder's id is told to
// its own application only: another application's ids are not this one's to know.
func boletoHeld(b *db.BoletoRow, clientID, holder, holderClient uuid.UUID) error {
	state := "is being paid"
	if b.Status == BoletoPaid {
		state = "was paid"
	}
	if holderClient != clientID {
		return model.Fail(model.CodeBoletoBeingPaid, "Boleto %s %s by another application's payment request.", b.NossoNumero, state)
	}
	return model.Fail(model.CodeBoletoBeingPaid, "Boleto %s %s by payment request %s; delete or cancel that request to pay the boleto with another.", b.NossoNumero, state, holder).
		WithData(map[string]string{"paymentRequestId": holder.String()})
}

// checkOwnBoletoPayable refuses to start paying a request whose boleto can no longer be
// paid (a payer's attempt would only fail at settlement).
func (e *Engine) checkOwnBoletoPayable(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	d, err := e.ownBoletoSettles(ctx, tx, p)
	if err != nil || d == nil {
		return err
	}
	return model.Fail(model.CodeBoletoNotPayable, "Payment request %s cannot be paid: %s", p.ID, d.Description)
}

// ownBoletoSettles locks, for the settlement of a request, the boleto of this service it
// pays and says why the payment must fail instead (nil when it may complete). The lock is
// held until the transaction ends, so the boleto becomes PAID (settleOwnBoleto, when the
// request completes) with nothing changing it in between.
func (e *Engine) ownBoletoSettles(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) (*model.PaymentErrorDetail, error) {
	code, own := ownBoletoCode(p.Boleto)
	if !own {
		return nil, nil
	}
	b, found, err := lockOwnBoleto(ctx, tx, code)
	if err != nil || !found {
		return nil, err
	}
	if why := e.boletoUnpayable(ctx, b); why != "" {
		return &model.PaymentErrorDetail{Code: model.CodeBoletoNotPayable.String(), Description: why + " Nothing was paid.", Detail: strPtr("BOLETO_" + b.Status)}, nil
	}
	return nil, nil
}
