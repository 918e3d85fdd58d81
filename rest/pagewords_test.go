package rest

import (
	"bytes"
	"net/http/httptest"
	"regexp"
	"testing"

	"ponte/model"
	"ponte/payments"
)

// Every status a payer's page can show has words in both languages, and every text the
// templates ask for exists: a missing one would show its key.
func TestPageWords(t *testing.T) {
	for _, code := range []string{payments.Started, payments.Enqueued, payments.ConsentAwaitingAuthorization, payments.ConsentAuthorized,
		payments.ConsentRejected, payments.PaymentPending, payments.PaymentPartiallyAccepted, payments.SettlementProcessing,
		payments.SettlementDebtorAccount, payments.PaymentCompleted, payments.PaymentRejected, payments.IntentError, payments.IntentCanceled,
		payments.Revoked, payments.Consumed, payments.PaymentTimeout, payments.IntentRejected,
		payments.Created, payments.InProgress, payments.WaitingPayerAuthorization, payments.Authorized, payments.Scheduled,
		payments.Completed, payments.RequestError, payments.RefundInProgress, payments.Refunded, payments.RefundError,
		payments.Expired, payments.Canceled} {
		for _, l := range []pageLang{langPT, langEN} {
			if w := l.Status(code); w == code || w == "" {
				t.Errorf("%s has no words in %s", code, l.Tag())
			}
		}
	}
	for _, d := range []string{model.DecisionAuthorized, model.DecisionRejected, model.DecisionExpired, model.DecisionEnded} {
		if decidedMessage(langEN, &d) == "" {
			t.Errorf("decision %s has no message", d)
		}
	}
	for _, code := range []string{model.PreauthCreated, model.PreauthCompleted, model.PreauthRevoked, model.PreauthRejected, model.PreauthError} {
		if w := langEN.StatusOf("preauth", code); w == code {
			t.Errorf("pre-authorization status %s has no words", code)
		}
	}
	for _, code := range []string{model.BulkCreated, model.BulkPaymentInProgress, model.BulkCompleted, model.BulkError} {
		if w := langPT.StatusOf("bulk", code); w == code {
			t.Errorf("bulk payment status %s has no words", code)
		}
	}
	for _, key := range []string{"payNotFound", "consentNotFound", "preauthNotFound", "bulkNotFound"} {
		if _, ok := pageTexts[key]; !ok {
			t.Errorf("the page title %q has no words", key)
		}
	}
	for _, m := range regexp.MustCompile(`\.L\.T "([^"]+)"`).FindAllStringSubmatch(payPages.Tree.Root.String()+transferPages.Tree.Root.String(), -1) {
		if _, ok := pageTexts[m[1]]; !ok {
			t.Errorf("the pages ask for the text %q, which has no words", m[1])
		}
	}
	for header, want := range map[string]pageLang{"": langPT, "en-US,en;q=0.9": langEN, "pt-BR,en;q=0.5": langPT, "fr": langPT} {
		r := httptest.NewRequest("GET", "/payments/pay/x", nil)
		r.Header.Set("Accept-Language", header)
		if got := langOf(r); got != want {
			t.Errorf("Accept-Language %q: %s, want %s", header, got.Tag(), want.Tag())
		}
	}
	// Every part of the page renders, in both languages: a template error sends half a page.
	amount, fixed, desc := 12.5, 3.0, "Assinatura"
	req := &model.PaymentRequest{Amount: &amount, Description: &desc, Status: payments.Created,
		AutomaticPix: &model.AutomaticPix{Interval: "MONTHLY", StartDate: "2026-12-01", FixedAmount: &fixed, MaximumVariableAmount: &fixed,
			FirstPayment: &model.AutomaticPixFirstPayment{Amount: 1}},
		Recipient: &model.PaymentRecipient{Name: "Loja"}, PixQrCode: &model.PixQrCode{MerchantName: "Loja", MerchantCity: "SP"}}
	intent := &model.PaymentIntent{Status: payments.ConsentAwaitingAuthorization, Connector: &model.Connector{Name: "Banco"},
		PixData: &model.PixData{Qr: "data:image/png;base64,AA==", Value: "000201"}}
	for _, l := range []pageLang{langPT, langEN} {
		var b bytes.Buffer
		v := payView{L: l, Title: "t", Error: "e", Message: "m", Request: req, Intent: intent, Connectors: []*model.Connector{{Name: "Banco"}},
			PayerName: "Maria", PayerCPF: "123.***.***-45", CanDecide: true, SecondSigner: true}
		if err := payPages.Execute(&b, v); err != nil {
			t.Fatalf("%s: %v", l.Tag(), err)
		}
		if !bytes.Contains(b.Bytes(), []byte(l.Status(payments.ConsentAwaitingAuthorization))) || !bytes.Contains(b.Bytes(), []byte("</html>")) {
			t.Fatalf("%s: %s", l.Tag(), b.Bytes())
		}
	}
	limit := 100.0
	for _, l := range []pageLang{langPT, langEN} {
		var b bytes.Buffer
		v := transferView{L: l, Title: "t", Error: "e", Message: "m", PayerName: "Maria", PayerCPF: "123.***.***-45", CanDecide: true, CanRevoke: true,
			Preauth: &model.SmartTransferPreauthorization{Status: model.PreauthCreated, Connector: &model.Connector{Name: "Banco"},
				Recipients: []*model.PaymentRecipient{{Name: "Loja"}}},
			Bulk: &model.BulkPayment{Status: model.BulkCreated, PaymentRequests: []*model.PaymentRequest{{Amount: &limit, Recipient: &model.PaymentRecipient{Name: "Loja"}}}}}
		if err := transferPages.Execute(&b, v); err != nil {
			t.Fatalf("%s: %v", l.Tag(), err)
		}
		if !bytes.Contains(b.Bytes(), []byte(l.StatusOf("bulk", model.BulkCreated))) || !bytes.Contains(b.Bytes(), []byte("</html>")) {
			t.Fatalf("%s: %s", l.Tag(), b.Bytes())
		}
	}
	if langOf(httptest.NewRequest("GET", "/x?lang=en", nil)) != langEN || langOf(httptest.NewRequest("GET", "/x?lang=pt-BR", nil)) != langPT {
		t.Error("?lang= does not choose the language")
	}
}
