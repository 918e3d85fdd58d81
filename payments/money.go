package payments

import (
	"context"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/ledger"
)

// Where each payment product's money goes in the ledger. A request is paid from its payer's
// bank, or from a smart account when a bulk payment paid it, into its recipient: a smart
// account, the issuer of the boleto it pays, or the payees' banks. One movement per payment,
// under a reference the payment owns, so a step that runs twice posts once.

// requestSource is the account a request's money leaves.
func requestSource(p *db.PaymentRequestRow) string {
	if p.SourceSmartAccountID != nil {
		return ledger.SmartAccount(*p.SourceSmartAccountID)
	}
	return ledger.Payers
}

// requestDestination is the account a request's money enters.
func requestDestination(p *db.PaymentRequestRow) string {
	switch {
	case p.SmartAccountID != nil:
		return ledger.SmartAccount(*p.SmartAccountID)
	case p.Boleto != nil:
		return ledger.Boleto(p.Boleto.Barcode)
	}
	return ledger.Payees
}

// payRequest posts a single request's payment: once, whether its bulk payment's approval
// posted it already or its settlement step runs again.
func (e *Engine) payRequest(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	if err := ledger.MoveOnce(ctx, tx, ledger.Movement{From: requestSource(p), To: requestDestination(p), Cents: cents(p.Amount),
		Kind: ledger.KindPayment, Reference: "request:" + p.ID.String(), At: p.UpdatedAt}); err != nil {
		return err
	}
	if fee := cents(p.Fees); fee > 0 {
		return ledger.MoveOnce(ctx, tx, ledger.Movement{From: ledger.Client(p.ClientID), To: ledger.Fees, Cents: fee,
			Kind: ledger.KindFee, Reference: "fee:request:" + p.ID.String(), At: p.UpdatedAt})
	}
	return nil
}

// payDated posts one payment of a dated or recurring request (a scheduled payment, an
// automatic PIX charge), named by its own id.
func (e *Engine) payDated(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, kind string, id uuid.UUID, amount float64) error {
	return ledger.MoveOnce(ctx, tx, ledger.Movement{From: ledger.Payers, To: requestDestination(p), Cents: cents(amount),
		Kind: ledger.KindPayment, Reference: kind + ":" + id.String(), At: e.now(ctx)})
}

// payBoletoOutside posts a boleto of this service paid by its payer outside any payment
// request (its PIX code, or the sandbox payer paying at a bank): from the payers to its
// issuer, once per boleto.
func (e *Engine) payBoletoOutside(ctx context.Context, tx *db.Tx, b *db.BoletoRow) error {
	if b.AmountPaid == nil {
		return nil
	}
	return ledger.MoveOnce(ctx, tx, ledger.Movement{From: ledger.Payers, To: ledger.Boleto(b.Barcode), Cents: cents(*b.AmountPaid),
		Kind: ledger.KindPayment, Reference: "boleto:" + b.ID.String(), At: e.now(ctx)})
}

// returnPayment gives back a payment posted before its settlement failed (a bulk payment's
// request whose boleto was cancelled meanwhile): to where it came from, once.
func (e *Engine) returnPayment(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	return ledger.MoveOnce(ctx, tx, ledger.Movement{From: requestDestination(p), To: requestSource(p), Cents: cents(p.Amount),
		Kind: ledger.KindPaymentReturn, Reference: "request:" + p.ID.String() + ":return", At: e.now(ctx)})
}

// holdRefund takes a refund's amount out of the account the request credited: a smart
// account must hold it (INSUFFICIENT_SMART_ACCOUNT_BALANCE otherwise), and cannot spend it
// while the institution answers.
func (e *Engine) holdRefund(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, refund uuid.UUID, amount int64) error {
	return ledger.Move(ctx, tx, ledger.Movement{From: requestDestination(p), To: ledger.Refunds, Cents: amount,
		Kind: ledger.KindRefundHold, Reference: "refund:" + refund.String(), At: e.now(ctx)})
}

// endRefund releases a held refund to whoever paid the request, or, refused by the
// institution, returns it to where it was held from.
func (e *Engine) endRefund(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, refund uuid.UUID, amount int64, done bool) error {
	m := ledger.Movement{From: ledger.Refunds, To: requestSource(p), Cents: amount, Kind: ledger.KindRefundRelease,
		Reference: "refund:" + refund.String() + ":release", At: e.now(ctx)}
	if !done {
		m.To, m.Kind, m.Reference = requestDestination(p), ledger.KindRefundReturn, "refund:"+refund.String()+":return"
	}
	return ledger.MoveOnce(ctx, tx, m)
}
