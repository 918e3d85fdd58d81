package payments_test

import (
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
)

// Customers are stored with their documents as digits, change field by field under the
// same rules, and once deleted leave the lists but stay on the requests that name them.
func TestCustomersKeepTheirRulesThroughChangesAndDeletion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	_, err := w.pay.CreateCustomer(w.ctx, model.PaymentCustomerInput{Type: ptr("INDIVIDUAL"), Name: ptr("Ana")})
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.CreateCustomer(w.ctx, model.PaymentCustomerInput{Type: ptr("INDIVIDUAL"), Name: ptr("Ana"), Cpf: ptr("111.444.777-36")})
	wantCode(t, err, model.CodeInvalidCPF)

	c := must(w.pay.CreateCustomer(w.ctx, model.PaymentCustomerInput{Type: ptr("INDIVIDUAL"), Name: ptr("  Ana Souza "),
		Cpf: ptr("111.444.777-35"), Cnpj: ptr(""), Email: ptr("ana@example.com")}))(t)
	if c.Name != "Ana Souza" || c.Cpf == nil || *c.Cpf != happyCPF || c.Cnpj != nil {
		t.Fatalf("created customer: %+v", c)
	}
	// Becoming a business needs a CNPJ; the refused change leaves the customer as it was.
	_, err = w.pay.UpdateCustomer(w.ctx, c.ID, model.PaymentCustomerInput{Type: ptr("BUSINESS")})
	wantCode(t, err, model.CodeInvalidParameter)
	if got := must(w.pay.Customer(w.ctx, c.ID))(t); got.Type != "INDIVIDUAL" {
		t.Fatalf("a refused change was stored: %+v", got)
	}
	up := must(w.pay.UpdateCustomer(w.ctx, c.ID, model.PaymentCustomerInput{Type: ptr("BUSINESS"), Cnpj: ptr("11.222.333/0001-81"), Email: ptr("")}))(t)
	if up.Type != "BUSINESS" || *up.Cnpj != "11222333000181" || up.Email != nil || up.Name != "Ana Souza" {
		t.Fatalf("updated customer: %+v", up)
	}
	_, err = w.pay.Customer(w.as(w.newClient("stranger")), c.ID)
	wantCode(t, err, model.CodePaymentCustomerNotFound)

	p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(true), CustomerID: ptr(c.ID.String())}))(t)
	must(w.pay.DeleteCustomer(w.ctx, c.ID))(t)
	if pg, err := w.pay.Customers(w.ctx, nil, ptr(10)); err != nil || pg.Total != 0 || len(pg.Results) != 0 {
		t.Fatalf("a deleted customer is listed: %+v (%v)", pg, err)
	}
	_, err = w.pay.Customer(w.ctx, c.ID)
	wantCode(t, err, model.CodePaymentCustomerNotFound)
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Customer == nil || got.Customer.ID != c.ID {
		t.Fatalf("the request lost its deleted customer: %+v", got.Customer)
	}
	_, err = w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), CustomerID: ptr(c.ID.String())})
	wantCode(t, err, model.CodePaymentCustomerNotFound)
}

// A recipient comes from a bank account or a PIX key, never both; a PIX key always
// resolves to the same account (the sandbox's directory); what identifies a recipient
// (key, institution) never changes; the default recipient moves with isDefault.
func TestRecipientsFromAccountsOrKeysAndTheDefaultOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	inst := w.institution("Nubank")
	account := &model.PaymentRecipientAccount{Branch: "0001", Number: "1234-5", Type: "CHECKING_ACCOUNT"}
	cases := []struct {
		name string
		in   model.PaymentRecipientInput
		code model.Code
	}{
		{"smart account", model.PaymentRecipientInput{SmartAccountID: ptr(uuid.NewString())}, model.CodePaymentFeatureNotSupported},
		{"key and account", model.PaymentRecipientInput{PixKey: ptr("ana@example.com"), Account: account}, model.CodeInvalidParameter},
		{"not a key", model.PaymentRecipientInput{PixKey: ptr("ana")}, model.CodeInvalidPixKey},
		{"no name", model.PaymentRecipientInput{TaxNumber: ptr(happyCPF), PaymentInstitutionID: ptr(inst), Account: account}, model.CodeInvalidParameter},
		{"no tax number", model.PaymentRecipientInput{Name: ptr("Ana"), PaymentInstitutionID: ptr(inst), Account: account}, model.CodeInvalidParameter},
		{"tax number of 12 digits", model.PaymentRecipientInput{Name: ptr("Ana"), TaxNumber: ptr("111444777350"), PaymentInstitutionID: ptr(inst), Account: account}, model.CodeInvalidCPF},
		{"no institution", model.PaymentRecipientInput{Name: ptr("Ana"), TaxNumber: ptr(happyCPF), Account: account}, model.CodeInvalidParameter},
		{"unknown institution", model.PaymentRecipientInput{Name: ptr("Ana"), TaxNumber: ptr(happyCPF), PaymentInstitutionID: ptr(uuid.NewString()), Account: account}, model.CodePaymentInstitutionNotFound},
		{"no account", model.PaymentRecipientInput{Name: ptr("Ana"), TaxNumber: ptr(happyCPF), PaymentInstitutionID: ptr(inst)}, model.CodeInvalidParameter},
	}
	for _, c := range cases {
		_, err := w.pay.CreateRecipient(w.ctx, c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	if pg, _ := w.pay.Recipients(w.ctx, nil, ptr(10)); pg.Total != 1 {
		t.Fatalf("refused creates left %+v recipients, want the default one", pg)
	}

	k1 := must(w.pay.CreateRecipient(w.ctx, model.PaymentRecipientInput{PixKey: ptr("ana@example.com")}))(t)
	k2 := must(w.pay.CreateRecipient(w.ctx, model.PaymentRecipientInput{PixKey: ptr("ana@example.com"), Name: ptr("Ana Pix")}))(t)
	if k1.Account == nil || k1.PaymentInstitution == nil || *k1.Account != *k2.Account || k1.TaxNumber != k2.TaxNumber || k2.Name != "Ana Pix" || k1.ID == k2.ID {
		t.Fatalf("one key, two lookups: %+v / %+v", k1, k2)
	}
	byCPF := must(w.pay.CreateRecipient(w.ctx, model.PaymentRecipientInput{PixKey: ptr(happyCPF)}))(t)
	if byCPF.TaxNumber != happyCPF {
		t.Fatalf("a CPF key's recipient has taxNumber %s", byCPF.TaxNumber)
	}

	_, err := w.pay.UpdateRecipient(w.ctx, k1.ID, model.PaymentRecipientInput{PixKey: ptr("outra@example.com")})
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.UpdateRecipient(w.ctx, k1.ID, model.PaymentRecipientInput{Name: ptr(" ")})
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.UpdateRecipient(w.ctx, k1.ID, model.PaymentRecipientInput{TaxNumber: ptr("11144477736")})
	wantCode(t, err, model.CodeInvalidCPF)
	up := must(w.pay.UpdateRecipient(w.ctx, k1.ID, model.PaymentRecipientInput{Name: ptr("Ana Nova"), IsDefault: ptr(true), Account: account}))(t)
	if up.Name != "Ana Nova" || !up.IsDefault || up.Account.Number != "1234-5" {
		t.Fatalf("updated recipient: %+v", up)
	}
	if old := must(w.pay.Recipient(w.ctx, uuid.MustParse(w.recipient)))(t); old.IsDefault {
		t.Fatal("two default recipients")
	}
	if p := w.request(5); p.Recipient == nil || p.Recipient.ID != k1.ID {
		t.Fatalf("a new request pays %+v, want the new default", p.Recipient)
	}

	must(w.pay.DeleteRecipient(w.ctx, byCPF.ID))(t)
	_, err = w.pay.Recipient(w.ctx, byCPF.ID)
	wantCode(t, err, model.CodePaymentRecipientNotFound)
	_, err = w.pay.DeleteRecipient(w.as(w.newClient("stranger")), k1.ID)
	wantCode(t, err, model.CodePaymentRecipientNotFound)
}

// What the payer consents to is frozen when they start paying: an edit of the recipient's
// record afterwards changes neither the request nor the payment; a request freed again
// (the attempt refused) pays the record as it is then.
func TestConsentFreezesTheRecipientThePayerSaw(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	r := w.bankRecipient(w.client, "Nome Antigo", "11444777000161", false)
	p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(9.0), IsSandbox: ptr(true), RecipientID: ptr(r.ID.String())}))(t)
	n := must(w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(p.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}, PaymentMethod: ptr("PIX")}))(t)
	must(w.pay.UpdateRecipient(w.ctx, r.ID, model.PaymentRecipientInput{Name: ptr("Nome Novo"), TaxNumber: ptr("11222333000181")}))(t)

	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Recipient.Name != "Nome Antigo" || got.Recipient.TaxNumber != "11444777000161" {
		t.Fatalf("request during the attempt shows %+v", got.Recipient)
	}
	if code := must(payments.ParseBRCode(n.PixData.Value))(t); code.MerchantName != "Nome Antigo" || code.Key != "11444777000161" {
		t.Fatalf("PIX code of the attempt: %+v", code)
	}
	must(w.pay.DecideForPayer(w.ctx, n.ID, false))(t)
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Recipient.Name != "Nome Novo" {
		t.Fatalf("a freed request still shows the old copy: %+v", got.Recipient)
	}
}

// Institutions are found by part of their name; an unknown id is its own refusal.
func TestInstitutionsAreFoundByName(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	pg, err := w.pay.Institutions(w.ctx, nil, ptr(10), ptr(" nubank "))
	if err != nil || pg.Total < 1 || len(pg.Results) < 1 {
		t.Fatalf("institutions named nubank: %+v (%v)", pg, err)
	}
	list, total := pg.Results, pg.Total
	if got := must(w.pay.Institution(w.ctx, list[0].ID))(t); got.Name != list[0].Name {
		t.Fatalf("institution read back: %+v", got)
	}
	if all, _ := w.pay.Institutions(w.ctx, nil, ptr(1), nil); all.Total <= total {
		t.Fatalf("all institutions %d, named nubank %d", all.Total, total)
	}
	_, err = w.pay.Institution(w.ctx, uuid.New())
	wantCode(t, err, model.CodePaymentInstitutionNotFound)
}
