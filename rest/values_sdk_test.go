package rest_test

import (
	"encoding/json"
	"testing"
	"time"
)

// TestEveryDocumentedValueThroughTheClient reads the connector, item, account and
// transaction values through the official Node client (testdata/pluggy/values.js): each
// value of those lists must reach the client as it parses the answers.
func TestEveryDocumentedValueThroughTheClient(t *testing.T) {
	t.Parallel()
	doc := readInterfaceDoc(t)
	out := runPluggy(t, "every value through the client", "values.js", 3*time.Minute)
	var read struct {
		Connectors, Items, Accounts, Transactions, InvestmentTransactions []map[string]any
	}
	if err := json.Unmarshal(out, &read); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	got := seen{}
	for _, c := range read.Connectors {
		got.top("connector type", c, "type")
		got.top("connector country", c, "country")
		got.from("credential type", c["credentials"], "type")
		got.from("connector health status", c["health"], "status")
		got.from("item products", c, "products")
	}
	for _, it := range read.Items {
		got.top("item status or executionStatus", it, "status")
		got.top("item status or executionStatus", it, "executionStatus")
		got.from("item products", it, "products")
		got.from("credential type", it["parameter"], "type")
		got.from("userAction type", it["userAction"], "type")
	}
	for _, a := range read.Accounts {
		got.top("account type", a, "type")
		got.top("account subtype", a, "subtype")
		if cd, ok := a["creditData"].(map[string]any); ok {
			got.top("creditData status", cd, "status")
			got.top("creditData holderType", cd, "holderType")
		}
	}
	for _, tx := range read.Transactions {
		got.top("transaction type", tx, "type")
		got.top("transaction status", tx, "status")
		got.from("feeType", tx["creditCardMetadata"], "feeType")
		got.from("otherCreditsType", tx["creditCardMetadata"], "otherCreditsType")
		if tx["accountType"] == "CREDIT" {
			got.top("card operationType", tx, "operationType")
		}
		if pd, ok := tx["paymentData"].(map[string]any); ok {
			got.from("paymentData documentNumber type", pd["payer"], "type")
			got.from("paymentData documentNumber type", pd["receiver"], "type")
		}
	}
	for _, tx := range read.InvestmentTransactions {
		got.top("investment transaction type", tx, "type")
		got.top("investment transaction movementType", tx, "movementType")
	}
	got.check(t, doc, "connector type", "connector health status", "connector country", "credential type", "item products",
		"userAction type", "account type", "account subtype", "creditData status", "creditData holderType", "transaction type",
		"transaction status", "feeType", "otherCreditsType", "card operationType", "paymentData documentNumber type",
		"investment transaction type", "investment transaction movementType", "item status or executionStatus")
}
