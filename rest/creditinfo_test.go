package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"ponte/model"
	"ponte/sandbox"
	"ponte/testsupport"
)

// scrItem connects document on the SCR connector and gives consent on its page.
func scrItem(t *testing.T, env *testsupport.Env, key, document string) *model.Item {
	t.Helper()
	it := createItem(t, env, key, sandbox.SCRConnectorID, map[string]any{"document": document})
	return approve(t, env, key, it.ID.String())
}

func TestCreditInformation(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "scr").APIKey
	other := env.NewClient(t, "scr-other").APIKey

	t.Run("a person's report agrees with the loans the same CPF holds at a bank", func(t *testing.T) {
		const cpf = "52998224725"
		it := scrItem(t, env, key, cpf)
		if it.Status != "UPDATED" || it.ExecutionStatus != "SUCCESS" {
			t.Fatalf("SCR item %s / %s", it.Status, it.ExecutionStatus)
		}
		var r model.CreditInformation
		env.Do(t, "GET", "/credit-information?itemId="+it.ID.String(), key, nil).Want(200).JSON(&r)
		if r.ItemID != it.ID || r.Document != cpf || r.DocumentType != "CPF" || r.InstitutionCount == 0 || r.OperationCount == 0 {
			t.Fatalf("report %+v", r)
		}
		// The same report by id, as the interface reads one product document.
		var byID model.CreditInformation
		env.Do(t, "GET", "/credit-information/"+r.ID.String(), key, nil).Want(200).JSON(&byID)
		if byID.ID != r.ID || byID.Maturity != r.Maturity {
			t.Fatalf("by id %+v, by item %+v", byID, r)
		}
		bank := approve(t, env, key, createItem(t, env, key, 5, map[string]any{"cpf": cpf}).ID.String())
		var loans struct{ Results []model.Loan }
		env.Do(t, "GET", "/loans?itemId="+bank.ID.String(), key, nil).Want(200).JSON(&loans)
		var personal model.Centavos
		for _, m := range r.Modalities {
			if m.Code == "0203" {
				personal = m.Amount
			}
		}
		if len(loans.Results) == 0 || personal < model.Centavos(*loans.Results[0].Payments.ContractOutstandingBalance*100) {
			t.Fatalf("SCR personal loans %d below the bank's outstanding %v", personal, loans.Results)
		}
		// Amounts are numbers in reais on the wire.
		raw := env.Do(t, "GET", "/credit-information?itemId="+it.ID.String(), key, nil).Want(200).Map()
		if _, ok := raw["maturity"].(map[string]any)["total"].(float64); !ok {
			t.Fatalf("maturity total is not a number: %v", raw["maturity"])
		}

		d := env.GraphQL(t, key, `query($id: UUID!) { creditInformation(itemId: $id) { id documentType referenceMonth
			modalities { code name amount } maturity { total overdue writtenOff } } }`, map[string]any{"id": it.ID}).OK(t)
		g := d["creditInformation"].(map[string]any)
		if g["id"] != r.ID.String() || g["referenceMonth"] != r.ReferenceMonth || len(g["modalities"].([]any)) != len(r.Modalities) {
			t.Fatalf("GraphQL %v, REST %+v", g, r)
		}
		if total, _ := g["maturity"].(map[string]any)["total"].(float64); model.Centavos(total*100+0.5) != r.Maturity.Total {
			t.Fatalf("GraphQL total %v, REST %d", total, r.Maturity.Total)
		}

		// Another application sees nothing of it.
		env.Do(t, "GET", "/credit-information?itemId="+it.ID.String(), other, nil).WantError(404, "ITEM_NOT_FOUND")
		env.Do(t, "GET", "/credit-information/"+r.ID.String(), other, nil).WantError(404, "CREDIT_INFORMATION_NOT_FOUND")
		env.GraphQL(t, other, `query($id: UUID!) { creditInformation(id: $id) { id } }`, map[string]any{"id": r.ID}).WantCode(t, "CREDIT_INFORMATION_NOT_FOUND")
		// A bank item collects no SCR report.
		env.Do(t, "GET", "/credit-information?itemId="+bank.ID.String(), key, nil).WantError(404, "CREDIT_INFORMATION_NOT_FOUND")
	})

	t.Run("scenario users", func(t *testing.T) {
		var none model.CreditInformation
		env.Do(t, "GET", "/credit-information?itemId="+scrItem(t, env, key, sandbox.SCRNoHistoryCPF).ID.String(), key, nil).Want(200).JSON(&none)
		if none.OperationCount != 0 || none.Maturity.Total != 0 || none.Modalities == nil || len(none.Modalities) != 0 {
			t.Fatalf("no history: %+v", none)
		}
		var bad model.CreditInformation
		env.Do(t, "GET", "/credit-information?itemId="+scrItem(t, env, key, sandbox.SCROverdueCPF).ID.String(), key, nil).Want(200).JSON(&bad)
		if bad.Maturity.Overdue == 0 || bad.Maturity.WrittenOff == 0 || bad.CoobligationsShareBps == 0 {
			t.Fatalf("overdue: %+v", bad)
		}
		var co model.CreditInformation
		env.Do(t, "GET", "/credit-information?itemId="+scrItem(t, env, key, "11222333000181").ID.String(), key, nil).Want(200).JSON(&co)
		if co.DocumentType != "CNPJ" || co.OperationCount == 0 {
			t.Fatalf("company: %+v", co)
		}
		down := scrItem(t, env, key, sandbox.SCRUnavailableCPF)
		if down.Status != "OUTDATED" || down.ExecutionStatus != "SITE_NOT_AVAILABLE" {
			t.Fatalf("unavailable SCR: %s / %s", down.Status, down.ExecutionStatus)
		}
		env.Do(t, "GET", "/credit-information?itemId="+down.ID.String(), key, nil).WantError(404, "CREDIT_INFORMATION_NOT_FOUND")
	})

	t.Run("hostile input", func(t *testing.T) {
		for _, q := range []string{"", "itemId=", "itemId=nope", "itemId=%00", "itemId=" + strings.Repeat("a", 10000)} {
			env.Do(t, "GET", "/credit-information?"+q, key, nil).WantError(http.StatusBadRequest, "INVALID_PARAMETER")
		}
		env.Do(t, "GET", "/credit-information/not-a-uuid", key, nil).WantError(http.StatusBadRequest, "INVALID_PARAMETER")
		docs := map[string]string{"123": "CONNECTOR_VALIDATION_ERROR", "529982247250000000": "CONNECTOR_VALIDATION_ERROR",
			"abcdefghijk": "CONNECTOR_VALIDATION_ERROR", strings.Repeat("1", 10000): "CONNECTOR_VALIDATION_ERROR",
			"5299822472\u0000": "INVALID_PARAMETER"}
		for doc, code := range docs {
			env.Do(t, "POST", "/items", key, map[string]any{"connectorId": sandbox.SCRConnectorID, "parameters": map[string]any{"document": doc}}).
				WantError(400, code)
		}
		env.GraphQL(t, key, `{ creditInformation { id } }`, nil).WantCode(t, "INVALID_PARAMETER")
	})
}
