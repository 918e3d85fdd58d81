package payments

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Smart transfers follow the Open Finance "JSR" model: a payer pre-authorizes, once, on the
// consent page, transfers from their account to a few recipients within limits; the
// application then pays under it with no payer interaction (smarttransferpayments.go).

// Pre-authorization statuses (the official client's SMART_TRANSFER_PREAUTHORIZATION_STATUS).
const (
	PreauthCreated   = model.PreauthCreated
	PreauthCompleted = model.PreauthCompleted
	PreauthRevoked   = model.PreauthRevoked
	PreauthRejected  = model.PreauthRejected
	PreauthError     = model.PreauthError
)

// preauthMoves is every move a pre-authorization may make: the payer decides once, and
// either side may revoke one that has not ended.
var preauthMoves = map[string][]string{
	PreauthCreated:   {PreauthCompleted, PreauthRejected, PreauthError, PreauthRevoked},
	PreauthCompleted: {PreauthRevoked},
}

func preauthMoveAllowed(from, to string) bool {
	for _, s := range preauthMoves[from] {
		if s == to {
			return true
		}
	}
	return false
}

// maxPreauthRecipients bounds one pre-authorization's recipients.
const maxPreauthRecipients = 20

// CreatePreauthorization asks a payer for a pre-authorization: it waits in CREATED for the
// payer's decision on its consentUrl.
func (e *Engine) CreatePreauthorization(ctx context.Context, in model.SmartTransferPreauthorizationInput) (*model.SmartTransferPreauthorization, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.ConnectorID == nil {
		return nil, bad("connectorId is required: a connector with supportsSmartTransfers (GET /connectors?supportsSmartTransfers=true&sandbox=true).")
	}
	conn, found, err := e.db.Connector(ctx, *in.ConnectorID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", *in.ConnectorID)
	}
	if !conn.SupportsSmartTransfers {
		return nil, model.Fail(model.CodeConnectorNoSmartTransfers, "Connector %d (%s) does not offer smart transfers; list those that do with GET /connectors?supportsSmartTransfers=true&sandbox=true.", conn.ID, conn.Name)
	}
	if in.Parameters == nil || in.Parameters.Cpf == nil {
		return nil, bad("parameters.cpf is required: the payer's CPF.")
	}
	now := e.now(ctx)
	p := &db.PreauthorizationRow{ID: model.NewID(), ClientID: clientID, ConnectorID: conn.ID, Status: PreauthCreated, CreatedAt: now, UpdatedAt: now}
	if ctx, err = e.attachPreauthClock(ctx, p, conn, in.TestClockID); err != nil {
		return nil, err
	}
	if p.Payer.Cpf, err = checkCPF("parameters.cpf", *in.Parameters.Cpf); err != nil {
		return nil, err
	}
	if c := emptyAsNil(in.Parameters.Cnpj); c != nil {
		d, err := checkCNPJ("parameters.cnpj", *c)
		if err != nil {
			return nil, err
		}
		p.Payer.Cnpj = &d
	}
	if n := emptyAsNil(in.Parameters.Name); n != nil {
		if len(*n) > 100 {
			return nil, bad("parameters.name is longer than 100 characters.")
		}
		p.Payer.Name = n
	}
	// The recipients are copied now: the consent page shows these copies, and the payer's
	// approval and every payment under it are for them, whatever the application later
	// does to the records.
	if p.Recipients, err = e.preauthRecipients(ctx, clientID, p.Payer, in.RecipientIds); err != nil {
		return nil, err
	}
	for _, r := range p.Recipients {
		p.RecipientIDs = append(p.RecipientIDs, r.ID)
	}
	if in.Limits != nil {
		l := in.Limits
		for field, v := range map[string]*float64{"limits.transaction": l.Transaction, "limits.daily": l.Daily, "limits.weekly": l.Weekly,
			"limits.monthly": l.Monthly, "limits.yearly": l.Yearly, "limits.total": l.Total} {
			if v != nil {
				if err := checkAmount(field, *v); err != nil {
					return nil, err
				}
			}
		}
		p.Limits = *l
	}
	if in.CallbackUrls != nil {
		if in.CallbackUrls.Pending != nil {
			return nil, bad("callbackUrls.pending does not apply to a pre-authorization: the payer's decision is success or error.")
		}
		for field, u := range map[string]*string{"callbackUrls.success": in.CallbackUrls.Success, "callbackUrls.error": in.CallbackUrls.Error} {
			if u != nil {
				if err := model.CheckRedirectURL(field, *u); err != nil {
					return nil, err
				}
			}
		}
		p.CallbackSuccess, p.CallbackError = in.CallbackUrls.Success, in.CallbackUrls.Error
	}
	if id := emptyAsNil(in.ClientPreauthorizationID); id != nil {
		if len(*id) > 100 {
			return nil, bad("clientPreauthorizationId is longer than 100 characters.")
		}
		p.ClientPreauthorizationID = id
	}
	if err := e.db.InsertPreauthorization(ctx, p); err != nil {
		return nil, err
	}
	return e.preauthView(ctx, p)
}

// preauthRecipients checks the recipients a pre-authorization names: each the
// application's, not deleted, and either the payer's own account (same CPF or CNPJ) or the
// application's own (its default recipient), since a standing consent to pay anyone else is
// what the JSR model forbids.
func (e *Engine) preauthRecipients(ctx context.Context, clientID uuid.UUID, payer db.PaymentPayer, ids []string) ([]*model.PaymentRecipient, error) {
	if len(ids) == 0 {
		return nil, bad("recipientIds is required: at least one of the application's recipients (GET /payments/recipients).")
	}
	if len(ids) > maxPreauthRecipients {
		return nil, bad("recipientIds has %d entries; a pre-authorization names at most %d.", len(ids), maxPreauthRecipients)
	}
	out := make([]*model.PaymentRecipient, 0, len(ids))
	seen := map[uuid.UUID]bool{}
	for i, v := range ids {
		id, err := parseID(fmt.Sprintf("recipientIds[%d]", i), v)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, bad("recipientIds names %s twice.", id)
		}
		seen[id] = true
		r, found, err := e.db.PaymentRecipient(ctx, clientID, id, false)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, model.Fail(model.CodePaymentRecipientNotFound, "Payment recipient %s not found.", id)
		}
		own := r.TaxNumber == payer.Cpf || (payer.Cnpj != nil && r.TaxNumber == *payer.Cnpj)
		if !own && !r.IsDefault {
			return nil, model.Fail(model.CodeSmartTransferRecipientNotAllowed,
				"Recipient %s (%s) is neither the payer's own account (its taxNumber is not the payer's CPF or CNPJ) nor the application's (isDefault).", id, r.Name)
		}
		out = append(out, r)
	}
	return out, nil
}

// Preauthorization reads one of the application's pre-authorizations.
func (e *Engine) Preauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	p, err := e.preauthRow(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	return e.preauthView(ctx, p)
}

func (e *Engine) preauthRow(ctx context.Context, clientID, id uuid.UUID) (*db.PreauthorizationRow, error) {
	p, found, err := e.db.Preauthorization(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartTransferPreauthorizationNotFound, "Smart transfer pre-authorization %s not found.", id)
	}
	return p, nil
}

// Preauthorizations lists the application's pre-authorizations, oldest first.
func (e *Engine) Preauthorizations(ctx context.Context, page, pageSize *int) (*model.SmartTransferPreauthorizationPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.SmartTransferPreauthorization, int, error) {
		rows, total, err := e.db.Preauthorizations(ctx, clientID, limit, offset)
		if err != nil {
			return nil, 0, err
		}
		out, err := e.preauthViews(ctx, clientID, rows)
		return out, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.SmartTransferPreauthorizationPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// PreauthConsentForPayer reads a pre-authorization for its payer's consent page, which is
// reached by its unguessable id alone.
func (e *Engine) PreauthConsentForPayer(ctx context.Context, id uuid.UUID) (*model.PreauthConsentView, error) {
	p, err := e.preauthRow(ctx, uuid.Nil, id)
	if err != nil {
		return nil, err
	}
	v, err := e.preauthView(ctx, p)
	if err != nil {
		return nil, err
	}
	return &model.PreauthConsentView{Preauthorization: preauthForPayer(v), PayerName: payerName(p.Payer.Name), PayerCpf: maskCPF(p.Payer.Cpf),
		CanDecide: PreauthDecidable(p.Status), CanRevoke: PreauthRevocableByPayer(p.Status)}, nil
}

// preauthForPayer is a pre-authorization as its payer's page shows it: without the
// application's own reference.
func preauthForPayer(v *model.SmartTransferPreauthorization) *model.SmartTransferPreauthorization {
	c := *v
	c.ClientPreauthorizationID = nil
	return &c
}

func (e *Engine) preauthView(ctx context.Context, p *db.PreauthorizationRow) (*model.SmartTransferPreauthorization, error) {
	views, err := e.preauthViews(ctx, p.ClientID, []*db.PreauthorizationRow{p})
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// preauthViews builds the answers of several pre-authorizations of one application with
// one read of all their recipients and one of each connector, not two reads per row.
func (e *Engine) preauthViews(ctx context.Context, clientID uuid.UUID, rows []*db.PreauthorizationRow) ([]*model.SmartTransferPreauthorization, error) {
	var ids []uuid.UUID
	for _, p := range rows {
		if len(p.Recipients) == 0 {
			ids = append(ids, p.RecipientIDs...) // written before recipients were copied
		}
	}
	recipients, err := e.db.PaymentRecipientsByID(ctx, clientID, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*model.PaymentRecipient, len(recipients))
	for _, r := range recipients {
		byID[r.ID] = r
	}
	connectors := map[int]*model.Connector{}
	out := make([]*model.SmartTransferPreauthorization, 0, len(rows))
	for _, p := range rows {
		v := &model.SmartTransferPreauthorization{ID: p.ID, Status: p.Status, ClientPreauthorizationID: p.ClientPreauthorizationID,
			ErrorDetail: p.ErrorDetail, CreatedAt: model.NewTime(p.CreatedAt), UpdatedAt: model.NewTime(p.UpdatedAt), Recipients: []*model.PaymentRecipient{},
			TestClockID: p.TestClockID}
		limits := p.Limits
		v.Limits = &limits
		if p.Status == PreauthCreated {
			v.ConsentURL = strPtr(strings.TrimSuffix(e.cfg.BaseURL, "/") + "/smart-transfers/consent/" + p.ID.String())
		}
		if p.CallbackSuccess != nil || p.CallbackError != nil {
			v.CallbackUrls = &model.CallbackURLs{Success: p.CallbackSuccess, Error: p.CallbackError}
		}
		conn, seen := connectors[p.ConnectorID]
		if !seen {
			if conn, _, err = e.db.Connector(ctx, p.ConnectorID); err != nil {
				return nil, err
			}
			connectors[p.ConnectorID] = conn
		}
		v.Connector = conn
		v.Recipients = append(v.Recipients, p.Recipients...)
		if len(p.Recipients) == 0 {
			for _, id := range p.RecipientIDs {
				if r := byID[id]; r != nil {
					v.Recipients = append(v.Recipients, r)
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// PreauthDecidable reports whether the payer may still authorize or reject a
// pre-authorization in this status, as DecidePreauthorization allows.
func PreauthDecidable(status string) bool { return status == PreauthCreated }

// PreauthRevocableByPayer reports whether the payer's page offers revoking: a COMPLETED
// pre-authorization (a CREATED one the payer rejects instead).
func PreauthRevocableByPayer(status string) bool { return status == PreauthCompleted }

// DecidePreauthorizationForPayer is the payer's answer on the consent page. An approval
// reaches the payer's institution, which may still refuse it (the sandbox's blocked account,
// CPF 100.000.006-04).
func (e *Engine) DecidePreauthorizationForPayer(ctx context.Context, id uuid.UUID, approve bool) (*model.SmartTransferPreauthorization, error) {
	var p *db.PreauthorizationRow
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if p, err = e.lockPreauth(ctx, tx, uuid.Nil, id); err != nil {
			return err
		}
		if !PreauthDecidable(p.Status) {
			return model.Fail(model.CodeSmartTransferPreauthorizationDecided, "Smart transfer pre-authorization %s is %s already.", id, p.Status)
		}
		if ctx, err = e.preauthOnClock(ctx, tx, p); err != nil {
			return err
		}
		to := PreauthCompleted
		if !approve {
			to = PreauthRejected
			p.ErrorDetail = &model.PaymentErrorDetail{Code: ConsentRejected, Description: "The payer rejected the pre-authorization."}
		} else if d, err := e.cfg.Institution.Open(ctx, Attempt{ID: p.ID, ConnectorID: p.ConnectorID,
			Payer: Payer{CPF: p.Payer.Cpf, CNPJ: p.Payer.Cnpj, Name: p.Payer.Name}, Signatures: p.Payer.Signatures, Status: p.Status, Preauthorized: true}); err != nil {
			return err
		} else if d != nil {
			to, p.ErrorDetail = PreauthError, d
		}
		return e.movePreauth(ctx, tx, p, to, ByUser)
	})
	if err != nil {
		return nil, err
	}
	v, err := e.preauthView(ctx, p)
	if err != nil {
		return nil, err
	}
	return preauthForPayer(v), nil
}

// RevokePreauthorization ends a pre-authorization for the application: payments already
// accepted go on; no new one is.
func (e *Engine) RevokePreauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.revokePreauth(ctx, clientID, id, ByClient)
}

// RevokePreauthorizationForPayer is the payer revoking on the consent page.
func (e *Engine) RevokePreauthorizationForPayer(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	v, err := e.revokePreauth(ctx, uuid.Nil, id, ByUser)
	if err != nil {
		return nil, err
	}
	return preauthForPayer(v), nil
}

func (e *Engine) revokePreauth(ctx context.Context, clientID, id uuid.UUID, by string) (*model.SmartTransferPreauthorization, error) {
	var p *db.PreauthorizationRow
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if p, err = e.lockPreauth(ctx, tx, clientID, id); err != nil {
			return err
		}
		if !preauthMoveAllowed(p.Status, PreauthRevoked) {
			return model.Fail(model.CodeSmartTransferNotRevocable, "Smart transfer pre-authorization %s is %s; only a CREATED or COMPLETED one can be revoked.", id, p.Status)
		}
		if ctx, err = e.preauthOnClock(ctx, tx, p); err != nil {
			return err
		}
		return e.movePreauth(ctx, tx, p, PreauthRevoked, by)
	})
	if err != nil {
		return nil, err
	}
	return e.preauthView(ctx, p)
}

func (e *Engine) lockPreauth(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PreauthorizationRow, error) {
	p, found, err := tx.Preauthorization(ctx, clientID, id, true)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartTransferPreauthorizationNotFound, "Smart transfer pre-authorization %s not found.", id)
	}
	return p, nil
}

// movePreauth records a move and its event: completed when the payer approved, error when
// the payer rejected or the institution refused. Revocation has no event of its own.
func (e *Engine) movePreauth(ctx context.Context, tx *db.Tx, p *db.PreauthorizationRow, to, by string) error {
	if !preauthMoveAllowed(p.Status, to) {
		return model.Fail(model.CodeSmartTransferPreauthorizationDecided, "Smart transfer pre-authorization %s is %s and cannot become %s.", p.ID, p.Status, to)
	}
	from := p.Status
	p.Status, p.UpdatedAt = to, e.now(ctx)
	if err := tx.SavePreauthorization(ctx, p); err != nil {
		return err
	}
	tx.AfterCommit(func() {
		e.log.InfoContext(ctx, "smart transfer preauthorization status", "preauthorizationId", p.ID, "clientId", p.ClientID, "from", from, "status", to, "by", by)
	})
	name := ""
	switch to {
	case PreauthCompleted:
		name = "smart_transfer_preauthorization/completed"
	case PreauthRejected, PreauthError:
		name = "smart_transfer_preauthorization/error"
	default:
		return nil
	}
	payload := map[string]any{"id": p.ID.String(), "preauthorizationId": p.ID.String(), "clientId": p.ClientID.String(), "status": to, "triggeredBy": by}
	if p.ClientPreauthorizationID != nil {
		payload["clientPreauthorizationId"] = *p.ClientPreauthorizationID
	}
	if p.ErrorDetail != nil {
		payload["error"] = p.ErrorDetail
	}
	return tx.InsertEvent(ctx, &db.Event{ClientID: p.ClientID, Event: name, Payload: payload})
}
