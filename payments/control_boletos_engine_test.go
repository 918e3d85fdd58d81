package payments_test

import (
	"testing"

	"ponte/model"
	"ponte/payments"
)

// A boleto issued on a connector outside the sandbox (Banco Aurora Empresas, 2) is not
// moved: 403, and it stays OPEN; another application's boleto is not found. The moves of
// a sandbox boleto's table are walked through REST (rest/control_boletos_test.go): its
// boleto connection needs an item approved on the sandbox payments connector's page.
func TestSandboxMoveBoletoRefusals(t *testing.T) {
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	b := w.boleto(conn, "CTL-1", 40, 5)
	_, err := w.move(model.SandboxBoletos, b.ID, payments.BoletoPaid)
	wantCode(t, err, model.CodeSandboxOnly)
	other := w.as(w.newClient("other"))
	_, err = w.pay.SandboxMove(other, model.SandboxBoletos, b.ID, model.SandboxPaymentMoveInput{Status: payments.BoletoPaid})
	wantCode(t, err, model.CodeBoletoNotFound)
	if got := must(w.pay.Boleto(w.ctx, b.ID))(t).Status; got != payments.BoletoOpen {
		t.Fatalf("a refused move changed the boleto: %s", got)
	}
}
