package payments

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Sandbox control of the payments that need no payer's consent page: a smart transfer
// payment and a bulk payment move to any status their own steps take them to next, through
// the functions those steps use (stepSmartTransfer, approveBulk, failBulk, completeBulk), so
// the events, the ledger postings and the requests' moves are a real move's. Each row is
// locked as its own job locks it, so a move and the job racing it run one after the other
// and the later finds the status the earlier left. As with the other moves, a move queues
// no step of its own: a job queued earlier still runs and goes on from where the move left
// the payment.

// smartTransferMoves is every move a smart transfer payment makes: the sandbox
// institution's settlement steps, each of which may be rejected.
var smartTransferMoves = map[string][]string{
	PaymentPending:          {SettlementProcessing, PaymentRejected},
	SettlementProcessing:    {SettlementDebtorAccount, PaymentRejected},
	SettlementDebtorAccount: {PaymentCompleted, PaymentRejected},
}

// bulkMoves is every move a bulk payment makes: its owner's decision, then the
// institution's settlement of its requests.
var bulkMoves = map[string][]string{
	BulkCreated:           {BulkPaymentInProgress, BulkError},
	BulkPaymentInProgress: {BulkCompleted},
}

// SmartTransferMovesFrom and BulkMovesFrom are the tables' rows for status.
func SmartTransferMovesFrom(status string) []string { return slices.Clone(smartTransferMoves[status]) }
func BulkMovesFrom(status string) []string          { return slices.Clone(bulkMoves[status]) }

// controlSmartTransfer moves one of the client's smart transfer payments; it returns the
// status it left.
func (e *Engine) controlSmartTransfer(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID, to string, d *model.SandboxPaymentErrorInput) (string, error) {
	p, found, err := tx.SmartTransferPayment(ctx, clientID, id, true)
	if err != nil {
		return "", err
	}
	if !found {
		return "", model.Fail(model.CodeSmartTransferPaymentNotFound, "Smart transfer payment %s not found.", id)
	}
	pre, found, err := tx.Preauthorization(ctx, clientID, p.PreauthorizationID, false)
	if err != nil {
		return "", err
	}
	connector := 0
	if found {
		connector = pre.ConnectorID
	}
	if c, ok, err := e.db.Connector(ctx, connector); err != nil {
		return "", err
	} else if !ok || !c.IsSandbox {
		return "", model.Fail(model.CodeSandboxOnly, "Smart transfer payment %s is not under a pre-authorization on a sandbox connector: control moves reach sandbox payments only.", id)
	}
	from := p.Status
	next := smartTransferMoves[from]
	if !slices.Contains(next, to) {
		return from, notAllowed("Smart transfer payment", p.ID, from, to, next, "")
	}
	if to == PaymentRejected {
		p.ErrorDetail = errorDetail(d, PaymentRejected)
	}
	return from, e.stepSmartTransfer(ctx, tx, p, to, ByClient, false)
}

// controlBulk moves one of the client's bulk payments; it returns the status it left. An
// approval that finds a request no longer payable or the balance short ends the bulk
// payment in ERROR, as the owner's approval would.
func (e *Engine) controlBulk(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID, to string, d *model.SandboxPaymentErrorInput) (from, now string, err error) {
	b, err := e.lockBulk(ctx, tx, clientID, id)
	if err != nil {
		return "", "", err
	}
	a, found, err := e.db.SmartAccount(ctx, clientID, b.SmartAccountID)
	if err != nil {
		return "", "", err
	}
	if !found || !a.IsSandbox {
		return "", "", model.Fail(model.CodeSandboxOnly, "Bulk payment %s pays from smart account %s, whose isSandbox is false: control moves reach sandbox payments only.", id, b.SmartAccountID)
	}
	from = b.Status
	next := bulkMoves[from]
	if !slices.Contains(next, to) {
		return from, "", notAllowed("Bulk payment", b.ID, from, to, next, "")
	}
	b.UpdatedAt = e.now(ctx)
	switch to {
	case BulkError:
		detail := errorDetail(d, ConsentRejected)
		if d == nil || d.Description == nil || *d.Description == "" {
			detail.Description = "The smart account's owner rejected the bulk payment (sandbox control move)."
		}
		err = e.failBulk(ctx, tx, b, detail)
	case BulkPaymentInProgress:
		err = e.approveBulk(ctx, tx, b, ByClient, false)
	default:
		err = e.completeBulk(ctx, tx, b, ByClient)
	}
	return from, b.Status, err
}
