package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Boleto statuses. Nothing returns to OPEN, and PAID, CANCELLED and PROTESTED end a boleto.
const (
	BoletoOpen      = "OPEN"
	BoletoPaid      = "PAID"
	BoletoOverdue   = "OVERDUE"
	BoletoCancelled = "CANCELLED"
	BoletoProtested = "PROTESTED"
)

// boletoMoves is the transition table of issued boletos.
var boletoMoves = map[string][]string{
	BoletoOpen:      {BoletoPaid, BoletoOverdue, BoletoCancelled},
	BoletoOverdue:   {BoletoPaid, BoletoCancelled, BoletoProtested},
	BoletoPaid:      nil,
	BoletoCancelled: nil,
	BoletoProtested: nil,
}

func checkBoletoMove(from, to string) error {
	if !slices.Contains(boletoMoves[from], to) {
		return model.Fail(model.CodeBoletoNotCancelable, "A %s boleto cannot become %s.", from, to)
	}
	return nil
}

// boletoBanks are the bank codes the sandbox institutions issue boletos under: codes no
// bank has, so a line made here is never mistaken for a real bank's.
var boletoBanks = map[int]string{2: "955", 6: "956"}

// CreateBoletoConnection connects an item that can issue boletos: the caller's, UPDATED,
// on a connector that manages boletos. A second call for the item returns the first
// connection.
func (e *Engine) CreateBoletoConnection(ctx context.Context, itemID *string) (*model.BoletoConnection, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !nonEmpty(itemID) {
		return nil, bad("itemId is required: the item (an UPDATED connection) to issue boletos through.")
	}
	id, err := parseID("itemId", *itemID)
	if err != nil {
		return nil, err
	}
	it, found, err := e.db.Item(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
	}
	conn, found, err := e.db.Connector(ctx, it.ConnectorID)
	if err != nil {
		return nil, err
	}
	if !found || !conn.SupportsBoletoManagement {
		return nil, model.Fail(model.CodeConnectorNoBoletos, "Item %s is on connector %d, which does not manage boletos; list those that do with GET /connectors (supportsBoletoManagement).", id, it.ConnectorID)
	}
	if it.Status != model.ItemUpdated {
		return nil, model.Fail(model.CodeItemNotUpdated, "Item %s is %s; it can issue boletos once a sync has succeeded (UPDATED).", id, it.Status)
	}
	now := model.NewTime(e.now(ctx))
	c, err := e.db.EnsureBoletoConnection(ctx, &db.BoletoConnectionRow{BoletoConnection: model.BoletoConnection{ID: model.NewID(),
		ConnectorID: conn.ID, CreatedAt: now, UpdatedAt: now}, ClientID: clientID, ItemID: id})
	if err != nil {
		return nil, err
	}
	return &c.BoletoConnection, nil
}

// BoletoConnection reads one connection.
func (e *Engine) BoletoConnection(ctx context.Context, id uuid.UUID) (*model.BoletoConnection, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	c, found, err := e.db.BoletoConnection(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoConnectionNotFound, "Boleto connection %s not found.", id)
	}
	return &c.BoletoConnection, nil
}

// BoletoConnections lists the application's connections.
func (e *Engine) BoletoConnections(ctx context.Context, page, pageSize *int) (*model.BoletoConnectionPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.BoletoConnection, int, error) {
		rows, total, err := e.db.BoletoConnections(ctx, clientID, limit, offset)
		out := make([]*model.BoletoConnection, len(rows))
		for i, r := range rows {
			out[i] = &r.BoletoConnection
		}
		return out, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.BoletoConnectionPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

var (
	ufs = []string{"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI",
		"RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"}
	cepRE = regexp.MustCompile(`^\d{5}-?\d{3}$`)
)

// CreateBoleto issues a boleto on a connection, with its digits and hybrid PIX code, and
// starts its sandbox payer.
func (e *Engine) CreateBoleto(ctx context.Context, in model.CreateBoletoInput) (*model.Boleto, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !nonEmpty(in.BoletoConnectionID) {
		return nil, bad("boletoConnectionId is required (POST /boleto-connections/from-item makes one).")
	}
	connID, err := parseID("boletoConnectionId", *in.BoletoConnectionID)
	if err != nil {
		return nil, err
	}
	if in.Boleto == nil {
		return nil, bad("boleto is required: {seuNumero, amount, dueDate, payer, fine?, interest?}.")
	}
	conn, found, err := e.db.BoletoConnection(ctx, clientID, connID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoConnectionNotFound, "Boleto connection %s not found.", connID)
	}
	ctx, clockID, err := e.attachBoletoClock(ctx, conn, in.TestClockID)
	if err != nil {
		return nil, err
	}
	b, err := e.boletoFromInput(ctx, *in.Boleto)
	if err != nil {
		return nil, err
	}
	b.ClientID, b.BoletoConnectionID, b.TestClockID = clientID, connID, clockID
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		n, err := tx.NextNossoNumero(ctx)
		if err != nil {
			return err
		}
		b.NossoNumero = fmt.Sprintf("%011d", n)
		code := BoletoCode{Bank: boletoBanks[conn.ConnectorID], Factor: DueFactor(b.DueDate.Time), Cents: cents(b.Amount),
			FreeField: boletoFreeField(b.NossoNumero, "0001", fmt.Sprintf("%08d", conn.ConnectorID))}
		if code.Bank == "" {
			code.Bank = "999"
		}
		b.Barcode, b.DigitableLine = code.Barcode(), code.Line()
		if qr, err := e.boletoPixCode(b); err == nil {
			b.PixQr = &qr
		}
		if err := tx.InsertBoleto(ctx, b); err != nil {
			if errors.Is(err, db.ErrDuplicateSeuNumero) {
				return model.Fail(model.CodeBoletoSeuNumeroExists, "Boleto connection %s already has a boleto with seuNumero %q.", connID, b.SeuNumero)
			}
			return err
		}
		return e.startSandboxPayer(ctx, tx, b)
	})
	if err != nil {
		return nil, err
	}
	return &b.Boleto, nil
}

// boletoFromInput checks a boleto's fields, each refusal naming its field.
func (e *Engine) boletoFromInput(ctx context.Context, in model.BoletoInput) (*db.BoletoRow, error) {
	now := model.NewTime(e.now(ctx))
	b := &db.BoletoRow{Boleto: model.Boleto{ID: model.NewID(), Status: BoletoOpen, CreatedAt: now, UpdatedAt: now}}
	if !nonEmpty(in.SeuNumero) || len(*in.SeuNumero) > 15 {
		return nil, bad("boleto.seuNumero is required: your own number for the boleto, 1 to 15 characters.")
	}
	b.SeuNumero = strings.TrimSpace(*in.SeuNumero)
	if in.Amount == nil {
		return nil, bad("boleto.amount is required: reais, at most two decimal places.")
	}
	if err := checkAmount("boleto.amount", *in.Amount); err != nil {
		return nil, err
	}
	if *in.Amount > 99_999_999.99 {
		return nil, bad("boleto.amount is at most 99,999,999.99: a barcode holds 10 digits of cents (got %v).", *in.Amount)
	}
	b.Amount = *in.Amount
	if !nonEmpty(in.DueDate) {
		return nil, bad("boleto.dueDate is required: a date (2026-12-31) today or later in São Paulo.")
	}
	due, err := model.ParseTime(*in.DueDate)
	if err != nil {
		return nil, bad("boleto.dueDate: %v.", err)
	}
	d := time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, time.UTC)
	if d.Before(e.today(ctx)) {
		return nil, model.Fail(model.CodeBoletoDueDateInPast, "boleto.dueDate %s is before today (%s in São Paulo).", d.Format(time.DateOnly), e.today(ctx).Format(time.DateOnly))
	}
	if d.After(e.today(ctx).AddDate(10, 0, 0)) {
		return nil, bad("boleto.dueDate %s is more than 10 years ahead.", d.Format(time.DateOnly))
	}
	b.DueDate = model.NewTime(d)
	if in.Payer == nil {
		return nil, model.Fail(model.CodeInvalidBoletoPayer, "boleto.payer is required: taxNumber, name, addressState and addressZipCode at least.")
	}
	p, err := checkBoletoPayer(*in.Payer)
	if err != nil {
		return nil, err
	}
	b.Payer = p
	if b.Fine, err = checkCharge("boleto.fine", in.Fine, []string{"PERCENTAGE", "FIXED"}, b.Amount); err != nil {
		return nil, err
	}
	if b.Interest, err = checkCharge("boleto.interest", in.Interest, []string{"PERCENTAGE"}, b.Amount); err != nil {
		return nil, err
	}
	return b, nil
}

func checkBoletoPayer(p model.BoletoPayer) (model.BoletoPayer, error) {
	fail := func(format string, args ...any) (model.BoletoPayer, error) {
		return p, model.Fail(model.CodeInvalidBoletoPayer, format, args...)
	}
	if strings.TrimSpace(p.TaxNumber) == "" {
		return fail("boleto.payer.taxNumber is required: the payer's CPF or CNPJ.")
	}
	doc, err := checkTaxNumber(p.TaxNumber)
	if err != nil {
		return p, err
	}
	p.TaxNumber = doc
	kind := "INDIVIDUAL"
	if len(doc) == 14 {
		kind = "BUSINESS"
	}
	if p.PersonType != nil && *p.PersonType != kind {
		return fail("boleto.payer.personType is %q but taxNumber is a %s's document (%s).", *p.PersonType, strings.ToLower(kind), kind)
	}
	p.PersonType = &kind
	if p.Name = strings.TrimSpace(p.Name); p.Name == "" || len(p.Name) > 100 {
		return fail("boleto.payer.name is required, at most 100 characters.")
	}
	if p.AddressState = strings.ToUpper(strings.TrimSpace(p.AddressState)); !slices.Contains(ufs, p.AddressState) {
		return fail("boleto.payer.addressState must be a Brazilian state's two-letter code (SP, RJ, ...; got %q).", p.AddressState)
	}
	if !cepRE.MatchString(strings.TrimSpace(p.AddressZipCode)) {
		return fail("boleto.payer.addressZipCode must be a CEP of 8 digits (01310-100; got %q).", p.AddressZipCode)
	}
	p.AddressZipCode = strings.ReplaceAll(strings.TrimSpace(p.AddressZipCode), "-", "")
	if p.Email != nil && *p.Email != "" && !strings.Contains(*p.Email, "@") {
		return fail("boleto.payer.email %q is not an e-mail address.", *p.Email)
	}
	return p, nil
}

// checkCharge checks a fine or interest: a known type, and a percentage of at most 100
// (interest: a month's) or a fixed sum of at most the amount, two decimals at most.
func checkCharge(field string, c *model.BoletoCharge, types []string, amount float64) (*model.BoletoCharge, error) {
	if c == nil {
		return nil, nil
	}
	if !slices.Contains(types, c.Type) {
		return nil, model.Fail(model.CodeInvalidBoletoCharges, "%s.type must be %s (got %q).", field, strings.Join(types, " or "), c.Type)
	}
	limit := 100.0
	if c.Type == "FIXED" {
		limit = amount
	}
	if err := checkAmount(field+".value", c.Value); err != nil || c.Value > limit {
		return nil, model.Fail(model.CodeInvalidBoletoCharges, "%s.value must be above 0 and at most %v, with at most two decimals (got %v).", field, limit, c.Value)
	}
	return c, nil
}

// cents is an amount already checked to have at most two decimals, in cents.
func cents(reais float64) int64 {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(reais, 'f', -1, 64))
	r.Mul(r, big.NewRat(100, 1))
	return r.Num().Int64()
}

// AmountDue is what paying on the given day costs: the amount, plus, after the due date,
// the fine (once) and the interest (its monthly percentage pro rata per day late, 30 days a
// month), each rounded to the cent half up. Exact: computed in rationals.
func AmountDue(b *model.Boleto, paid time.Time) float64 {
	total := new(big.Rat).SetInt64(cents(b.Amount))
	day := time.Date(paid.In(SaoPaulo).Year(), paid.In(SaoPaulo).Month(), paid.In(SaoPaulo).Day(), 0, 0, 0, 0, time.UTC)
	late := int64(day.Sub(b.DueDate.Time).Hours() / 24)
	if late > 0 {
		base := new(big.Rat).SetInt64(cents(b.Amount))
		if f := b.Fine; f != nil {
			if f.Type == "FIXED" {
				total.Add(total, new(big.Rat).SetInt64(cents(f.Value)))
			} else {
				total.Add(total, roundCents(new(big.Rat).Mul(base, pct(f.Value))))
			}
		}
		if i := b.Interest; i != nil {
			r := new(big.Rat).Mul(base, pct(i.Value))
			r.Mul(r, big.NewRat(late, 30))
			total.Add(total, roundCents(r))
		}
	}
	f, _ := new(big.Rat).Quo(total, big.NewRat(100, 1)).Float64()
	return f
}

func pct(v float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(v, 'f', -1, 64))
	return r.Quo(r, big.NewRat(100, 1))
}

func roundCents(r *big.Rat) *big.Rat {
	num := new(big.Int).Add(new(big.Int).Lsh(r.Num(), 1), r.Denom())
	return new(big.Rat).SetInt(num.Quo(num, new(big.Int).Lsh(r.Denom(), 1)))
}

// boletoPixCode is the hybrid boleto's dynamic BR Code: its location, served by this
// service, carries the amount.
func (e *Engine) boletoPixCode(b *db.BoletoRow) (string, error) {
	host := strings.TrimPrefix(strings.TrimPrefix(e.cfg.BaseURL, "https://"), "http://")
	code := BRCode{Dynamic: true, URL: host + "/boletos/pix/" + b.ID.String(), Amount: b.Amount,
		MerchantName: "PONTE BOLETO", MerchantCity: "SAO PAULO", TxID: strings.ReplaceAll(b.ID.String(), "-", "")[:25]}
	if err := code.Fits(); err != nil {
		return "", err
	}
	return code.Encode(), nil
}

// registerBoletos adds the boleto workers (called by Register).
func (e *Engine) registerBoletos(w *river.Workers) {
	river.AddWorker(w, &boletoStepWorker{e: e})
	river.AddWorker(w, &boletoSweepWorker{e: e})
}

// boletoRecipient makes a request pay the boleto its input names: the line's digits must
// hold, and the amount is the line's (an amount given must be the same).
func (e *Engine) boletoRecipient(ctx context.Context, p *db.PaymentRequestRow, in *model.PaymentRequestInput) error {
	if !nonEmpty(in.Boleto.DigitableLine) {
		return bad("boleto.digitableLine is required: the boleto's 47-digit line or 44-digit barcode.")
	}
	if in.RecipientID != nil {
		return bad("recipientId and boleto exclude each other: a request pays a recipient's account or a boleto.")
	}
	code, err := ParseBoletoLine(*in.Boleto.DigitableLine)
	if err != nil {
		return model.Fail(model.CodeInvalidDigitableLine, "boleto.digitableLine: %v.", err)
	}
	if code.Cents == 0 {
		return model.Fail(model.CodeInvalidDigitableLine, "boleto.digitableLine carries no amount; this service pays boletos of a set amount.")
	}
	amount := float64(code.Cents) / 100
	if in.Amount != nil && cents(*in.Amount) != code.Cents {
		return bad("amount %v differs from the boleto's %v; leave amount out to pay the boleto's.", *in.Amount, amount)
	}
	in.Amount = &amount
	b := &model.BoletoPayment{Type: "BOLETO", DigitableLine: code.Line(), Barcode: code.Barcode(), Amount: amount}
	if code.Factor >= 1000 {
		due := model.NewTime(FactorDate(code.Factor, e.now(ctx)))
		b.DueDate = &due
	}
	p.Boleto = b
	return nil
}

// boletoDocument is the request's boleto as its answer shows it.
func boletoDocument(b *model.BoletoPayment) *model.JSONDocument {
	if b == nil {
		return nil
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return nil
	}
	d := model.JSONDocument(raw)
	return &d
}

// settleOwnBoleto pays, when a request paying a line of this service completes, the
// boleto the line belongs to. The payer's attempt checked it could be paid, under the lock
// this takes again (ownBoletoSettles); a boleto found otherwise here came by a path that
// does not check (see docs/boletos.md: Paying a boleto) and is left as it is.
func (e *Engine) settleOwnBoleto(ctx context.Context, tx *db.Tx, p *model.BoletoPayment) error {
	code, own := ownBoletoCode(p)
	if !own {
		return nil // another bank's boleto: paid there
	}
	b, found, err := lockOwnBoleto(ctx, tx, code)
	if err != nil || !found || e.boletoUnpayable(ctx, b) != "" {
		return err
	}
	// The money moved with the request's own ledger movement, into this boleto's issuer.
	return e.moveBoleto(ctx, tx, b, BoletoPaid, "BOLETO", p.Amount)
}
