package payments

import (
	"testing"

	"github.com/google/uuid"

	"ponte/model"
)

// What a payer's page shows of a request leaves out the application's own bookkeeping and
// what Ponte charges it, and keeps where the page sends the payer.
func TestRequestForPayer(t *testing.T) {
	name, ref, hook := "Cliente", "ref-1", "https://app.example.com/hooks"
	doc := model.JSONDocument(`{"id":"x"}`)
	cb := &model.CallbackURLs{Success: &hook}
	in := &model.PaymentRequest{ID: uuid.New(), Fees: 1.5, ClientPaymentID: &ref, WebhookURL: &hook, SmartAccount: &doc,
		Customer: &model.PaymentCustomer{Name: name}, CallbackUrls: cb, Status: "CREATED"}
	out := requestForPayer(in)
	if out.Fees != 0 || out.ClientPaymentID != nil || out.WebhookURL != nil || out.SmartAccount != nil || out.Customer != nil {
		t.Fatalf("the payer's view keeps the application's bookkeeping: %+v", out)
	}
	if out.CallbackUrls != cb || out.ID != in.ID || out.Status != "CREATED" {
		t.Fatalf("the payer's view lost what the page needs: %+v", out)
	}
	if in.Fees != 1.5 || in.Customer == nil {
		t.Fatal("the application's own request was changed")
	}
}
