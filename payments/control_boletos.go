package payments

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Sandbox control of boletos: an issued boleto is paid, falls overdue, is cancelled or
// protested now, through moveBoleto as its sandbox payer's steps are (boleto/updated, and
// for PAID the ledger's entry of a boleto paid outside any payment request).

// BoletoMovesFrom is the boleto table's row for status.
func BoletoMovesFrom(status string) []string { return slices.Clone(boletoMoves[status]) }

// lockSandboxBoleto reads and locks one of the client's boletos, refusing one whose boleto
// connection's item is not on a sandbox connector.
func (e *Engine) lockSandboxBoleto(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.BoletoRow, error) {
	b, found, err := tx.LockBoleto(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoNotFound, "Boleto %s not found.", id)
	}
	conn, found, err := e.db.BoletoConnection(ctx, clientID, b.BoletoConnectionID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoConnectionNotFound, "Boleto connection %s of boleto %s not found.", b.BoletoConnectionID, b.ID)
	}
	connector := conn.ConnectorID
	if it, found, err := e.db.Item(ctx, clientID, conn.ItemID); err != nil {
		return nil, err
	} else if found {
		connector = it.ConnectorID
	}
	c, found, err := e.db.Connector(ctx, connector)
	if err != nil {
		return nil, err
	}
	if !found || !c.IsSandbox {
		return nil, model.Fail(model.CodeSandboxOnly, "Boleto %s was issued on connector %d, whose isSandbox is false: control moves reach sandbox boletos only.", b.ID, connector)
	}
	return b, nil
}

func (e *Engine) controlBoleto(ctx context.Context, tx *db.Tx, b *db.BoletoRow, to string) error {
	next := boletoMoves[b.Status]
	if !slices.Contains(next, to) {
		return notAllowed("Boleto", b.ID, b.Status, to, next, "")
	}
	if to != BoletoPaid {
		return e.moveBoleto(ctx, tx, b, to, "", 0)
	}
	// Paid today at a bank, what paying today costs (fine and interest once overdue).
	if err := e.moveBoleto(ctx, tx, b, BoletoPaid, "BOLETO", AmountDue(&b.Boleto, e.now(ctx))); err != nil {
		return err
	}
	return e.payBoletoOutside(ctx, tx, b)
}
