package rest_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// boletoItem is an UPDATED item of Banco Aurora Empresas (connector 2, which manages
// boletos).
func boletoItem(t *testing.T, env *testsupport.Env, key string) string {
	t.Helper()
	it := createItem(t, env, key, 2, map[string]any{"cnpj": "11222333000181", "cpf": happyCPF, "password": "12345678", "profile": "master"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return it.ID.String()
}

// boletoConnection connects a new boletoItem and returns the connection's id.
func boletoConnection(t *testing.T, env *testsupport.Env, key string) string {
	t.Helper()
	return env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": boletoItem(t, env, key)}).Want(200).String("id")
}

func boletoBody(conn, seu string, amount float64, due string) map[string]any {
	return map[string]any{"boletoConnectionId": conn, "boleto": map[string]any{"seuNumero": seu, "amount": amount, "dueDate": due,
		"payer": map[string]any{"taxNumber": "111.444.777-35", "name": "Maria Souza", "addressState": "SP", "addressZipCode": "01310-100",
			"addressCity": "São Paulo", "email": "maria@example.com"},
		"fine": map[string]any{"value": 2, "type": "PERCENTAGE"}, "interest": map[string]any{"value": 1, "type": "PERCENTAGE"}}}
}

func spDay(days int) string {
	return time.Now().In(payments.SaoPaulo).AddDate(0, 0, days).Format(time.DateOnly)
}

// Connections: only an UPDATED item of a connector that manages boletos, once per item.
func TestBoletoConnections(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "boleto connections").APIKey
	other := env.NewClient(t, "boleto connections other").APIKey

	retail := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	env.WaitItem(t, key, retail.ID.String(), testsupport.Settled)
	env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": retail.ID}).WantError(400, model.CodeConnectorNoBoletos.String())
	env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11"}).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": "nope"}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	// An item whose last sync failed cannot issue.
	stale := createItem(t, env, key, 2, map[string]any{"cnpj": "11222333000181", "cpf": "52998224725", "password": "87654321", "profile": "viewer"})
	env.WaitItem(t, key, stale.ID.String(), testsupport.Settled)
	env.Exec(t, `UPDATE items SET status = 'LOGIN_ERROR' WHERE id = $1`, stale.ID)
	env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": stale.ID}).WantError(400, model.CodeItemNotUpdated.String())

	conn := boletoConnection(t, env, key)
	var c model.BoletoConnection
	env.Do(t, "GET", "/boleto-connections/"+conn, key, nil).Want(200).JSON(&c)
	if c.ConnectorID != 2 || c.ID.String() != conn {
		t.Fatalf("connection %+v", c)
	}
	list := env.Do(t, "GET", "/boleto-connections", key, nil).Want(200).Map()
	if list["total"] != 1.0 {
		t.Fatalf("connections %v", list)
	}
	env.Do(t, "GET", "/boleto-connections/"+conn, other, nil).WantError(404, model.CodeBoletoConnectionNotFound.String())
	g := env.GraphQL(t, key, `{ boletoConnections { total results { id connectorId } } }`, nil).OK(t)
	if g["boletoConnections"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("GraphQL connections %v", g)
	}
}

// Issuing: every refusal names its field; an issued boleto's barcode and line are one
// valid code carrying the connection's bank, the due factor, the amount and the nosso
// número; its PIX code points at a charge of the amount; cancel ends it.
func TestBoletoIssue(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "boletos").APIKey
	conn := boletoConnection(t, env, key)

	bad := []struct {
		edit func(b map[string]any)
		code string
		says string
	}{
		{func(b map[string]any) { b["dueDate"] = spDay(-1) }, model.CodeBoletoDueDateInPast.String(), "before today"},
		{func(b map[string]any) { b["dueDate"] = "31/12/2026" }, model.CodeInvalidParameter.String(), "dueDate"},
		{func(b map[string]any) { b["amount"] = 0 }, model.CodeInvalidParameter.String(), "amount"},
		{func(b map[string]any) { b["amount"] = 10.001 }, model.CodeInvalidParameter.String(), "two decimal"},
		{func(b map[string]any) { delete(b, "seuNumero") }, model.CodeInvalidParameter.String(), "seuNumero"},
		{func(b map[string]any) { b["payer"].(map[string]any)["taxNumber"] = "111.444.777-36" }, model.CodeInvalidCPF.String(), "CPF"},
		{func(b map[string]any) { delete(b["payer"].(map[string]any), "name") }, model.CodeInvalidBoletoPayer.String(), "name"},
		{func(b map[string]any) { b["payer"].(map[string]any)["addressState"] = "XX" }, model.CodeInvalidBoletoPayer.String(), "addressState"},
		{func(b map[string]any) { b["payer"].(map[string]any)["addressZipCode"] = "123" }, model.CodeInvalidBoletoPayer.String(), "addressZipCode"},
		{func(b map[string]any) { b["fine"] = map[string]any{"value": 2, "type": "DAILY"} }, model.CodeInvalidBoletoCharges.String(), "fine.type"},
		{func(b map[string]any) { b["interest"] = map[string]any{"value": 150, "type": "PERCENTAGE"} }, model.CodeInvalidBoletoCharges.String(), "interest.value"},
		{func(b map[string]any) { b["interest"] = map[string]any{"value": 1, "type": "FIXED"} }, model.CodeInvalidBoletoCharges.String(), "interest.type"},
	}
	for i, c := range bad {
		body := boletoBody(conn, fmt.Sprint("bad", i), 150, spDay(10))
		c.edit(body["boleto"].(map[string]any))
		m := env.Do(t, "POST", "/boletos", key, body).WantError(400, c.code)
		if !strings.Contains(m["message"].(string), c.says) {
			t.Fatalf("case %d: message %q does not name %q", i, m["message"], c.says)
		}
	}
	env.Do(t, "POST", "/boletos", key, boletoBody("2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11", "x", 150, spDay(10))).WantError(404, model.CodeBoletoConnectionNotFound.String())

	due := spDay(10)
	var b model.Boleto
	env.Do(t, "POST", "/boletos", key, boletoBody(conn, "PED-1", 1234.5, due)).Want(200).JSON(&b)
	if b.Status != payments.BoletoOpen || b.Amount != 1234.5 || b.Payer.TaxNumber != happyCPF || *b.Payer.PersonType != "INDIVIDUAL" ||
		b.Payer.AddressZipCode != "01310100" || b.DueDate.Format(time.DateOnly) != due || len(b.NossoNumero) != 11 {
		t.Fatalf("boleto %+v", b)
	}
	code, err := payments.ParseBoletoLine(b.DigitableLine)
	if err != nil || code.Barcode() != b.Barcode || code.Bank != "955" || code.Cents != 123450 || code.FreeField[:11] != b.NossoNumero {
		t.Fatalf("line %s barcode %s: %+v %v", b.DigitableLine, b.Barcode, code, err)
	}
	dueDate, _ := time.Parse(time.DateOnly, due)
	if code.Factor != payments.DueFactor(dueDate) {
		t.Fatalf("factor %d, want %d", code.Factor, payments.DueFactor(dueDate))
	}
	pix, err := payments.ParseBRCode(*b.PixQr)
	if err != nil || !pix.Dynamic || !strings.HasSuffix(pix.URL, "/boletos/pix/"+b.ID.String()) || pix.Amount != 1234.5 {
		t.Fatalf("pixQr %q: %+v %v", *b.PixQr, pix, err)
	}
	charge := env.Do(t, "GET", "/boletos/pix/"+b.ID.String(), "", nil).Want(200).Map()
	if charge["status"] != "ATIVA" || charge["valor"].(map[string]any)["original"] != "1234.50" {
		t.Fatalf("charge %v", charge)
	}
	env.Do(t, "POST", "/boletos", key, boletoBody(conn, "PED-1", 10, due)).WantError(409, model.CodeBoletoSeuNumeroExists.String())

	var got model.Boleto
	env.Do(t, "GET", "/boletos/"+b.ID.String(), key, nil).Want(200).JSON(&got)
	if got.Barcode != b.Barcode || got.DigitableLine != b.DigitableLine {
		t.Fatalf("read back %+v", got)
	}
	g := env.GraphQL(t, key, `query($id: UUID!) { boleto(id: $id) { id status barcode digitableLine amount payer { taxNumber } fine { value type } } }`,
		map[string]any{"id": b.ID}).OK(t)["boleto"].(map[string]any)
	if g["barcode"] != b.Barcode || g["amount"] != 1234.5 || g["fine"].(map[string]any)["type"] != "PERCENTAGE" {
		t.Fatalf("GraphQL boleto %v", g)
	}
	env.Do(t, "POST", "/boletos/"+b.ID.String()+"/cancel", key, nil).Want(200).JSON(&got)
	if got.Status != payments.BoletoCancelled {
		t.Fatalf("cancelled %+v", got)
	}
	env.Do(t, "POST", "/boletos/"+b.ID.String()+"/cancel", key, nil).WantError(409, model.CodeBoletoNotCancelable.String())
	if c := env.Do(t, "GET", "/boletos/pix/"+b.ID.String(), "", nil).Want(200).Map(); c["status"] != "REMOVIDA_PELO_PSP" {
		t.Fatalf("charge of a cancelled boleto %v", c)
	}
	created := env.GraphQL(t, key, `mutation($in: CreateBoletoInput!) { createBoleto(input: $in) { seuNumero status amount } }`,
		map[string]any{"in": boletoBody(conn, "GQL-1", 77.7, due)}).OK(t)["createBoleto"].(map[string]any)
	if created["seuNumero"] != "GQL-1" || created["status"] != "OPEN" {
		t.Fatalf("GraphQL createBoleto %v", created)
	}
}

// The lifecycle: sandbox payers by cents, the PIX location paying, the daily sweep to
// OVERDUE and PROTESTED, every move a boleto/updated event at a real receiver, and the
// list's filters.
func TestBoletoLifecycle(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "boleto lifecycle").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "boleto/updated", "url": rc.URL + "/boletos"}).Want(200)
	conn := boletoConnection(t, env, key)
	due := spDay(3)
	issue := func(seu string, amount float64) model.Boleto {
		var b model.Boleto
		env.Do(t, "POST", "/boletos", key, boletoBody(conn, seu, amount, due)).Want(200).JSON(&b)
		return b
	}
	await := func(b model.Boleto, status string) model.Boleto {
		var got model.Boleto
		testsupport.Eventually(t, b.SeuNumero+" "+status, 20*time.Second, func() bool {
			env.Do(t, "GET", "/boletos/"+b.ID.String(), key, nil).Want(200).JSON(&got)
			return got.Status == status
		})
		return got
	}
	byBoleto := issue("P-91", 100.91)
	byPix := issue("P-92", 100.92)
	late := issue("P-93", 100.93)
	never := issue("P-94", 100.94)
	waits := issue("P-00", 50)

	if b := await(byBoleto, payments.BoletoPaid); *b.PaymentOrigin != "BOLETO" || *b.AmountPaid != 100.91 || b.PaidAt == nil {
		t.Fatalf(",91 %+v", b)
	}
	if b := await(byPix, payments.BoletoPaid); *b.PaymentOrigin != "PIX" || *b.AmountPaid != 100.92 {
		t.Fatalf(",92 %+v", b)
	}
	// Ten days late: 2% fine (2.02) and ten days of 1% a month (0.34).
	if b := await(late, payments.BoletoPaid); *b.AmountPaid != 103.29 {
		t.Fatalf(",93 paid %v, want 103.29 (100.93 + 2.02 fine + 0.34 interest)", *b.AmountPaid)
	}
	await(never, payments.BoletoProtested)

	env.Do(t, "POST", "/boletos/pix/"+waits.ID.String(), "", nil).Want(200)
	if b := await(waits, payments.BoletoPaid); *b.PaymentOrigin != "PIX" || *b.AmountPaid != 50 {
		t.Fatalf("paid by its PIX code %+v", b)
	}
	env.Do(t, "POST", "/boletos/pix/"+waits.ID.String(), "", nil).WantError(409, model.CodeBoletoNotPayable.String())

	// The daily sweep: an OPEN boleto past its due date becomes OVERDUE, and one overdue for
	// longer than the protest delay PROTESTED.
	old := issue("OLD-1", 60)
	env.Exec(t, `UPDATE boletos SET due_date = current_date - 2 WHERE id = $1`, old.ID)
	if _, err := env.Payments.SweepBoletos(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(old, payments.BoletoOverdue)
	env.Exec(t, `UPDATE boletos SET due_date = current_date - 40 WHERE id = $1`, old.ID)
	if _, err := env.Payments.SweepBoletos(context.Background()); err != nil {
		t.Fatal(err)
	}
	await(old, payments.BoletoProtested)

	got := rc.Await(t, "boleto events", 20*time.Second, func(d []testsupport.Delivery) bool { return len(d) >= 9 })
	statuses := map[string][]string{}
	for _, d := range got {
		id := d.Payload["boletoId"].(string)
		statuses[id] = append(statuses[id], d.Payload["status"].(string))
		if d.Payload["boletoConnectionId"] != conn {
			t.Fatalf("event %v", d.Payload)
		}
	}
	// Deliveries run concurrently (docs/webhooks.md), so the statuses are compared as sets.
	for id, want := range map[string]string{byBoleto.ID.String(): "PAID", late.ID.String(): "OVERDUE PAID", never.ID.String(): "OVERDUE PROTESTED",
		old.ID.String(): "OVERDUE PROTESTED"} {
		sort.Strings(statuses[id])
		if got := strings.Join(statuses[id], " "); got != want {
			t.Errorf("events of %s: %s, want %s", id, got, want)
		}
	}

	for q, want := range map[string]float64{"status=PAID": 4, "status=PROTESTED": 2, "boletoConnectionId=" + conn: 6,
		"dueDateFrom=" + due + "&dueDateTo=" + due: 5, "dueDateTo=" + spDay(-1): 1} {
		if m := env.Do(t, "GET", "/boletos?"+q, key, nil).Want(200).Map(); m["total"] != want {
			t.Errorf("GET /boletos?%s: total %v, want %v", q, m["total"], want)
		}
	}
	env.Do(t, "GET", "/boletos?status=LOST", key, nil).WantError(400, model.CodeInvalidParameter.String())
}

// The boleto resources field by field against golden shapes (checked against the spec's
// boleto and boleto connection): an open boleto without fine or interest, a paid one, a
// cancelled one.
func TestBoletoShapes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "boleto shapes").APIKey
	conn := boletoConnection(t, env, key)
	plain := boletoBody(conn, "S-1", 10, spDay(5))
	delete(plain["boleto"].(map[string]any), "fine")
	delete(plain["boleto"].(map[string]any), "interest")
	env.Do(t, "POST", "/boletos", key, plain).Want(200)
	paid := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "S-2", 11, spDay(5))).Want(200).String("id")
	env.Do(t, "POST", "/boletos/pix/"+paid, "", nil).Want(200)
	gone := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "S-3", 12, spDay(5))).Want(200).String("id")
	env.Do(t, "POST", "/boletos/"+gone+"/cancel", key, nil).Want(200)
	compareShapes(t, env, key, []shapeRead{
		{"boleto_connection", []string{"/boleto-connections"}},
		{"boleto", []string{"/boletos"}},
	})
}

// A payment request can pay a boleto (a recipient of type BOLETO): the line's digits must
// hold and its amount is the request's; paying a line of this service pays that boleto.
func TestPaymentRequestPaysBoleto(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "pays boletos").APIKey
	conn := boletoConnection(t, env, key)
	var b model.Boleto
	env.Do(t, "POST", "/boletos", key, boletoBody(conn, "PAY-1", 321.4, spDay(5))).Want(200).JSON(&b)

	mistyped := strings.Replace(b.DigitableLine, b.DigitableLine[:11], b.DigitableLine[:10]+string('0'+(b.DigitableLine[10]-'0'+1)%10), 1)
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": mistyped}, "isSandbox": true}).
		WantError(400, model.CodeInvalidDigitableLine.String())
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": b.DigitableLine}, "amount": 10, "isSandbox": true}).
		WantError(400, model.CodeInvalidParameter.String())
	// Another bank's boleto (the published Banco do Brasil line of R$ 1.00) is accepted too.
	other := env.Do(t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": "00190500954014481606906809350314337370000000100"}, "isSandbox": true}).Want(200).Map()
	if other["amount"] != 1.0 || other["boleto"].(map[string]any)["digitableLine"] != "00190.50095 40144.816069 06809.350314 3 37370000000100" {
		t.Fatalf("request paying another bank's boleto %v", other)
	}

	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": b.Barcode}, "isSandbox": true}).Want(200).JSON(&p)
	if *p.Amount != 321.4 || p.Recipient == nil || p.Recipient.Type != "BOLETO" || *p.Recipient.DigitableLine != b.DigitableLine ||
		p.Boleto == nil || !strings.Contains(string(*p.Boleto), `"type":"BOLETO"`) {
		t.Fatalf("request %+v boleto %s", p, *p.Boleto)
	}
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consent(t, env, &n, "authorize")
	awaitIntent(t, env, key, n.ID.String(), payments.PaymentCompleted)
	var paid model.Boleto
	testsupport.Eventually(t, "the boleto paid by the request", 20*time.Second, func() bool {
		env.Do(t, "GET", "/boletos/"+b.ID.String(), key, nil).Want(200).JSON(&paid)
		return paid.Status == payments.BoletoPaid
	})
	if *paid.PaymentOrigin != "BOLETO" || *paid.AmountPaid != 321.4 {
		t.Fatalf("boleto paid by a request %+v", paid)
	}
}
