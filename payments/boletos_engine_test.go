package payments_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// boletoConnector is the sandbox connector that manages boletos (Banco Aurora Empresas).
const boletoConnector = 2

// item creates an item of the world's application and waits for its first sync to end.
func (w *world) item(connector int, params map[string]any) uuid.UUID {
	w.t.Helper()
	it := must(w.env.Sync.Create(auth.WithResult(w.ctx, &auth.Principal{ClientID: w.client, Kind: auth.KindAPIKey}, nil),
		model.CreateItemInput{ConnectorID: connector, Parameters: params}))(w.t)
	testsupport.Eventually(w.t, "the item's first sync", wait, func() bool {
		row, _, err := w.env.DB.Item(w.ctx, w.client, it.ID)
		return err == nil && row.Status != model.ItemUpdating && row.Status != model.ItemMerging
	})
	return it.ID
}

func (w *world) boletoItem() uuid.UUID {
	w.t.Helper()
	return w.item(boletoConnector, map[string]any{"cnpj": "11222333000181", "cpf": happyCPF, "password": "12345678", "profile": "master"})
}

// boletoInput is a valid boleto of amount due in days, with a fine and interest.
func boletoInput(seu string, amount float64, days int) *model.BoletoInput {
	return &model.BoletoInput{SeuNumero: ptr(seu), Amount: ptr(amount), DueDate: ptr(spDay(days)),
		Payer: &model.BoletoPayer{TaxNumber: "111.444.777-35", Name: "Maria Souza", AddressState: "sp", AddressZipCode: "01310-100"},
		Fine:  &model.BoletoCharge{Type: "PERCENTAGE", Value: 2}, Interest: &model.BoletoCharge{Type: "PERCENTAGE", Value: 1}}
}

func (w *world) boleto(conn uuid.UUID, seu string, amount float64, days int) *model.Boleto {
	w.t.Helper()
	return must(w.pay.CreateBoleto(w.ctx, model.CreateBoletoInput{BoletoConnectionID: ptr(conn.String()), Boleto: boletoInput(seu, amount, days)}))(w.t)
}

func (w *world) awaitBoleto(id uuid.UUID, status string) *model.Boleto {
	w.t.Helper()
	var b *model.Boleto
	testsupport.Eventually(w.t, "boleto "+status, wait, func() bool {
		b = must(w.pay.Boleto(w.ctx, id))(w.t)
		return b.Status == status
	})
	return b
}

// A boleto connection needs an item of the application, UPDATED, on a connector that
// manages boletos; asking twice for one item gives the same connection.
func TestBoletoConnectionNeedsAnUpdatedItemOfABoletoConnector(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	item := w.boletoItem()
	retail := w.item(retailConnector, map[string]any{"user": "user-ok", "password": "password-ok"})
	for name, c := range map[string]struct {
		id   *string
		code model.Code
	}{
		"no item":          {nil, model.CodeInvalidParameter},
		"not an id":        {ptr("x"), model.CodeInvalidParameter},
		"unknown item":     {ptr(uuid.NewString()), model.CodeItemNotFound},
		"retail connector": {ptr(retail.String()), model.CodeConnectorNoBoletos},
	} {
		_, err := w.pay.CreateBoletoConnection(w.ctx, c.id)
		t.Run(name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	first := must(w.pay.CreateBoletoConnection(w.ctx, ptr(item.String())))(t)
	again := must(w.pay.CreateBoletoConnection(w.ctx, ptr(item.String())))(t)
	if first.ID != again.ID || first.ConnectorID != boletoConnector {
		t.Fatalf("two connections of one item: %+v %+v", first, again)
	}
	if pg, err := w.pay.BoletoConnections(w.ctx, nil, ptr(10)); err != nil || pg.Total != 1 || pg.Results[0].ID != first.ID {
		t.Fatalf("connections: %+v (%v)", pg, err)
	}
	_, err := w.pay.BoletoConnection(w.as(w.newClient("stranger")), first.ID)
	wantCode(t, err, model.CodeBoletoConnectionNotFound)

	other := w.boletoItem()
	w.env.Exec(t, `UPDATE items SET status = 'OUTDATED' WHERE id = $1`, other)
	_, err = w.pay.CreateBoletoConnection(w.ctx, ptr(other.String()))
	wantCode(t, err, model.CodeItemNotUpdated)
}

// An issued boleto carries a line of the sandbox bank with its amount, a hybrid PIX code,
// and a number of its own; each field is checked, and seuNumero is unique per connection.
func TestBoletoIssueChecksEveryField(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	cases := []struct {
		name   string
		change func(*model.BoletoInput)
		code   model.Code
	}{
		{"no seuNumero", func(b *model.BoletoInput) { b.SeuNumero = nil }, model.CodeInvalidParameter},
		{"long seuNumero", func(b *model.BoletoInput) { b.SeuNumero = ptr(strings.Repeat("1", 16)) }, model.CodeInvalidParameter},
		{"no amount", func(b *model.BoletoInput) { b.Amount = nil }, model.CodeInvalidParameter},
		{"amount above a barcode's", func(b *model.BoletoInput) { b.Amount = ptr(100_000_000.0) }, model.CodeInvalidParameter},
		{"no due date", func(b *model.BoletoInput) { b.DueDate = nil }, model.CodeInvalidParameter},
		{"due date not a date", func(b *model.BoletoInput) { b.DueDate = ptr("soon") }, model.CodeInvalidParameter},
		{"due yesterday", func(b *model.BoletoInput) { b.DueDate = ptr(spDay(-1)) }, model.CodeBoletoDueDateInPast},
		{"due in eleven years", func(b *model.BoletoInput) { b.DueDate = ptr(spDay(11 * 366)) }, model.CodeInvalidParameter},
		{"no payer", func(b *model.BoletoInput) { b.Payer = nil }, model.CodeInvalidBoletoPayer},
		{"payer without document", func(b *model.BoletoInput) { b.Payer.TaxNumber = "" }, model.CodeInvalidBoletoPayer},
		{"payer person type", func(b *model.BoletoInput) { b.Payer.PersonType = ptr("BUSINESS") }, model.CodeInvalidBoletoPayer},
		{"payer state", func(b *model.BoletoInput) { b.Payer.AddressState = "XX" }, model.CodeInvalidBoletoPayer},
		{"payer CEP", func(b *model.BoletoInput) { b.Payer.AddressZipCode = "0131" }, model.CodeInvalidBoletoPayer},
		{"payer e-mail", func(b *model.BoletoInput) { b.Payer.Email = ptr("maria") }, model.CodeInvalidBoletoPayer},
		{"fine type", func(b *model.BoletoInput) { b.Fine.Type = "DAILY" }, model.CodeInvalidBoletoCharges},
		{"fixed fine above the amount", func(b *model.BoletoInput) { b.Fine = &model.BoletoCharge{Type: "FIXED", Value: 200} }, model.CodeInvalidBoletoCharges},
		{"fixed interest", func(b *model.BoletoInput) { b.Interest.Type = "FIXED" }, model.CodeInvalidBoletoCharges},
	}
	for _, c := range cases {
		in := boletoInput("B1", 100, 5)
		c.change(in)
		_, err := w.pay.CreateBoleto(w.ctx, model.CreateBoletoInput{BoletoConnectionID: ptr(conn.String()), Boleto: in})
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	_, err := w.pay.CreateBoleto(w.ctx, model.CreateBoletoInput{BoletoConnectionID: ptr(uuid.NewString()), Boleto: boletoInput("B1", 100, 5)})
	wantCode(t, err, model.CodeBoletoConnectionNotFound)
	_, err = w.pay.CreateBoleto(w.ctx, model.CreateBoletoInput{BoletoConnectionID: ptr(conn.String())})
	wantCode(t, err, model.CodeInvalidParameter)

	b := w.boleto(conn, "B1", 123.45, 5)
	code := must(payments.ParseBoletoLine(b.DigitableLine))(t)
	if b.Status != payments.BoletoOpen || code.Bank != "955" || code.Cents != 12345 || b.Barcode != code.Barcode() || b.PixQr == nil ||
		len(b.NossoNumero) != 11 || b.Payer.AddressState != "SP" || b.Payer.AddressZipCode != "01310100" || *b.Payer.PersonType != "INDIVIDUAL" {
		t.Fatalf("issued boleto: %+v", b)
	}
	pix := must(payments.ParseBRCode(*b.PixQr))(t)
	if !pix.Dynamic || !strings.HasSuffix(pix.URL, "/boletos/pix/"+b.ID.String()) || pix.Amount != 123.45 {
		t.Fatalf("hybrid code: %+v", pix)
	}
	_, err = w.pay.CreateBoleto(w.ctx, model.CreateBoletoInput{BoletoConnectionID: ptr(conn.String()), Boleto: boletoInput("B1", 5, 5)})
	wantCode(t, err, model.CodeBoletoSeuNumeroExists)
	pg, err := w.pay.Boletos(w.ctx, model.BoletoFilter{Status: ptr("OPEN"), BoletoConnectionID: ptr(conn.String()),
		DueDateFrom: ptr(spDay(5)), DueDateTo: ptr(spDay(5))}, nil, ptr(10))
	if err != nil || pg.Total != 1 || pg.Results[0].ID != b.ID {
		t.Fatalf("boletos filtered: %+v (%v)", pg, err)
	}
	for name, f := range map[string]model.BoletoFilter{"status": {Status: ptr("LOST")}, "connection": {BoletoConnectionID: ptr("x")},
		"from": {DueDateFrom: ptr("x")}, "to": {DueDateTo: ptr("x")}} {
		_, err := w.pay.Boletos(w.ctx, f, nil, ptr(10))
		t.Run("filter "+name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
}

// The sandbox's boleto payers act as the cents of the amount say, each payment posting
// once to the boleto's issuer: ,91 pays by boleto, ,92 by PIX, ,93 pays ten days late with
// fine and interest, ,94 never pays and is protested.
func TestSandboxBoletoPayersFollowTheCentsOfTheAmount(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	byBoleto, byPix := w.boleto(conn, "P91", 10.91, 3), w.boleto(conn, "P92", 10.92, 3)
	late, never := w.boleto(conn, "P93", 100.93, 3), w.boleto(conn, "P94", 10.94, 3)
	for _, c := range []struct {
		b      *model.Boleto
		origin string
		paid   float64
		cents  int64
	}{
		{byBoleto, "BOLETO", 10.91, 1091},
		{byPix, "PIX", 10.92, 1092},
		// 2% fine (2.02) and 1% a month for ten days (0.34) on R$ 100.93.
		{late, "BOLETO", 103.29, 10329},
	} {
		got := w.awaitBoleto(c.b.ID, payments.BoletoPaid)
		if got.PaymentOrigin == nil || *got.PaymentOrigin != c.origin || got.AmountPaid == nil || *got.AmountPaid != c.paid || got.PaidAt == nil {
			t.Fatalf("boleto %s: origin %v, paid %v; want %s %v", c.b.SeuNumero, got.PaymentOrigin, got.AmountPaid, c.origin, c.paid)
		}
		w.wantBalance(ledger.Boleto(c.b.Barcode), c.cents)
	}
	w.awaitBoleto(never.ID, payments.BoletoProtested)
	w.wantBalance(ledger.Boleto(never.Barcode), 0)
	var statuses []any
	for _, e := range w.events(w.client, "boleto/updated") {
		if e.Payload["boletoId"] == late.ID.String() {
			statuses = append(statuses, e.Payload["status"])
		}
	}
	if len(statuses) != 2 || statuses[0] != payments.BoletoOverdue || statuses[1] != payments.BoletoPaid {
		t.Fatalf("events of the late boleto: %v", statuses)
	}
	w.env.AuditLedger(t)
}

// A boleto is cancelled only while OPEN or OVERDUE; its PIX charge is ATIVA while it can be
// paid, CONCLUIDA once paid by PIX and REMOVIDA_PELO_PSP once cancelled; a cancelled
// boleto takes no PIX.
func TestBoletoCancelAndItsPixCharge(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	open, gone := w.boleto(conn, "C1", 40, 2), w.boleto(conn, "C2", 41, 2)
	charge := must(w.pay.BoletoPixCharge(w.ctx, open.ID))(t)
	if charge.Status != "ATIVA" || charge.Valor.Original != "40.00" || charge.Chave != open.NossoNumero || charge.SolicitacaoPagador != "Boleto C1" {
		t.Fatalf("open boleto's charge: %+v", charge)
	}
	if paid := must(w.pay.PayBoletoByPix(w.ctx, open.ID))(t); paid.Status != "CONCLUIDA" {
		t.Fatalf("paid charge: %s", paid.Status)
	}
	if b := must(w.pay.Boleto(w.ctx, open.ID))(t); b.Status != payments.BoletoPaid || *b.PaymentOrigin != "PIX" {
		t.Fatalf("boleto paid by PIX: %s %v", b.Status, b.PaymentOrigin)
	}
	w.wantBalance(ledger.Boleto(open.Barcode), 4000)
	_, err := w.pay.PayBoletoByPix(w.ctx, open.ID)
	wantCode(t, err, model.CodeBoletoNotPayable)
	_, err = w.pay.CancelBoleto(w.ctx, open.ID)
	wantCode(t, err, model.CodeBoletoNotCancelable)

	if c := must(w.pay.CancelBoleto(w.ctx, gone.ID))(t); c.Status != payments.BoletoCancelled {
		t.Fatalf("cancelled: %s", c.Status)
	}
	if charge = must(w.pay.BoletoPixCharge(w.ctx, gone.ID))(t); charge.Status != "REMOVIDA_PELO_PSP" {
		t.Fatalf("cancelled boleto's charge: %s", charge.Status)
	}
	_, err = w.pay.PayBoletoByPix(w.ctx, gone.ID)
	wantCode(t, err, model.CodeBoletoNotPayable)
	_, err = w.pay.CancelBoleto(w.as(w.newClient("stranger")), gone.ID)
	wantCode(t, err, model.CodeBoletoNotFound)
	_, err = w.pay.BoletoPixCharge(w.ctx, uuid.New())
	wantCode(t, err, model.CodeBoletoNotFound)
	w.wantBalance(ledger.Boleto(gone.Barcode), 0)
}

// The daily sweep makes an OPEN boleto past its due date OVERDUE, and an OVERDUE one past
// the protest delay PROTESTED; a boleto overdue past that delay cannot be paid even before
// the sweep runs.
func TestBoletoSweepMovesBoletosWhoseDatesPassed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	b := w.boleto(conn, "S1", 70, 0)
	fresh := w.boleto(conn, "S2", 71, 1)
	w.env.Exec(t, `UPDATE boletos SET due_date = $2::date WHERE id = $1`, b.ID, spDay(-1))
	must(w.pay.SweepBoletos(w.ctx))(t)
	w.awaitBoleto(b.ID, payments.BoletoOverdue)
	if got := must(w.pay.Boleto(w.ctx, fresh.ID))(t); got.Status != payments.BoletoOpen {
		t.Fatalf("a boleto not yet due became %s", got.Status)
	}
	w.env.Exec(t, `UPDATE boletos SET due_date = $2::date WHERE id = $1`, b.ID, spDay(-31))
	_, err := w.pay.PayBoletoByPix(w.ctx, b.ID)
	wantCode(t, err, model.CodeBoletoNotPayable)
	must(w.pay.SweepBoletos(w.ctx))(t)
	w.awaitBoleto(b.ID, payments.BoletoProtested)
	if again := must(w.pay.SweepBoletos(w.ctx))(t); again != 0 {
		t.Fatalf("a second sweep moved %d boletos", again)
	}
}

// Two sweeps at once (the daily job and the one a new leader runs on start, or a job
// rescued while its first run goes on) must move a boleto one day late to OVERDUE only: a
// boleto is PROTESTED only once overdue past the protest delay, whoever moved it first.
func TestConcurrentBoletoSweepsProtestNothingBeforeTheDelay(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	for i := range 20 {
		w.boleto(conn, fmt.Sprintf("L%d", i), 70, 0)
	}
	w.env.Exec(t, `UPDATE boletos SET due_date = $1::date`, spDay(-1))
	// Both sweeps read the boletos due before either moves one: the rows are held until
	// both wait for their locks.
	hold := must(w.env.DB.Pool.Begin(w.ctx))(t)
	defer hold.Rollback(w.ctx)
	if _, err := hold.Exec(w.ctx, `SELECT id FROM boletos FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := w.pay.SweepBoletos(w.ctx); err != nil {
				t.Errorf("sweep: %v", err)
			}
		}()
	}
	testsupport.Eventually(t, "both sweeps to wait for the boletos' locks", wait, func() bool {
		var waiting int
		err := w.env.DB.Pool.QueryRow(w.ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		return err == nil && waiting >= 2
	})
	if err := hold.Commit(w.ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	pg := must(w.pay.Boletos(w.ctx, model.BoletoFilter{}, nil, ptr(100)))(t)
	list, total := pg.Results, pg.Total
	protested := 0
	for _, b := range list {
		if b.Status == payments.BoletoProtested {
			protested++
		} else if b.Status != payments.BoletoOverdue {
			t.Fatalf("boleto %s one day late is %s", b.SeuNumero, b.Status)
		}
	}
	if protested > 0 {
		t.Fatalf("%d of %d boletos one day late were PROTESTED (protest delay %d days)", protested, total, 30)
	}
}
