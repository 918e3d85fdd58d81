package itemsync

import (
	"testing"

	"ponte/auth"
	"ponte/model"
)

func TestCheckTokenConnector(t *testing.T) {
	retail := []model.Product{model.ProductAccounts, model.ProductCreditCards, model.ProductTransactions,
		model.ProductIdentity, model.ProductInvestments, model.ProductInvestmentsTransactions, model.ProductLoans}
	byID := map[int]*model.Connector{
		0: {ID: 0, Type: model.ConnectorTypePersonalBank, Country: "BR", IsSandbox: true, Products: retail},
		2: {ID: 2, Type: model.ConnectorTypeBusinessBank, Country: "BR",
			Products: []model.Product{model.ProductAccounts, model.ProductTransactions, model.ProductIdentity, model.ProductPaymentData, model.ProductLoans}},
		7: {ID: 7, Type: model.ConnectorTypePersonalBank, Country: "BR", Products: []model.Product{model.ProductAccounts, model.ProductTransactions}},
		9: {ID: 9, Type: model.ConnectorTypePersonalBank, Country: "BR", Products: retail},
	}
	no := false
	cases := []struct {
		name      string
		options   model.ConnectTokenOptions
		connector int
		body      []model.Product
		field     string // "" when allowed
		products  []model.Product
	}{
		{name: "no options", connector: 0},
		{name: "type allowed", options: model.ConnectTokenOptions{ConnectorTypes: []model.ConnectorType{model.ConnectorTypePersonalBank}}, connector: 0},
		{name: "type refused", options: model.ConnectTokenOptions{ConnectorTypes: []model.ConnectorType{model.ConnectorTypeInvestment}}, connector: 0, field: "connectorTypes"},
		{name: "country", options: model.ConnectTokenOptions{Countries: []string{"BR"}}, connector: 2},
		{name: "sandbox refused", options: model.ConnectTokenOptions{IncludeSandbox: &no}, connector: 0, field: "includeSandbox"},
		{name: "sandbox false, real bank", options: model.ConnectTokenOptions{IncludeSandbox: &no}, connector: 9},
		{name: "products missing", options: model.ConnectTokenOptions{Products: []model.Product{model.ProductCreditCards}}, connector: 7, field: "products"},
		{name: "products given to the item", options: model.ConnectTokenOptions{Products: []model.Product{model.ProductAccounts}}, connector: 0,
			products: []model.Product{model.ProductAccounts}},
		{name: "same products in the body", options: model.ConnectTokenOptions{Products: []model.Product{model.ProductAccounts, model.ProductLoans}}, connector: 0,
			body: []model.Product{model.ProductLoans, model.ProductAccounts}, products: []model.Product{model.ProductLoans, model.ProductAccounts}},
		{name: "other products in the body", options: model.ConnectTokenOptions{Products: []model.Product{model.ProductAccounts}}, connector: 0,
			body: []model.Product{model.ProductLoans}, field: "products"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &auth.Principal{Kind: auth.KindConnectToken, Options: c.options}
			in := createInput{Products: c.body}
			err := checkTokenConnector(p, byID[c.connector], &in)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(in.Products) != len(c.products) {
					t.Fatalf("products %v, want %v", in.Products, c.products)
				}
				return
			}
			e, _ := model.AsError(err)
			if err == nil || e.Code != model.CodeConnectTokenOptionConflict || e.Data.(map[string]string)["field"] != c.field {
				t.Fatalf("got %v, want a conflict on %s", err, c.field)
			}
		})
	}
	// API keys are not bound by anything.
	if err := checkTokenConnector(&auth.Principal{Kind: auth.KindAPIKey}, byID[0], &createInput{}); err != nil {
		t.Fatal(err)
	}
}
