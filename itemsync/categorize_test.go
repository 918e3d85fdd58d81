package itemsync_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/sandbox"
)

func TestCategorize(t *testing.T) {
	cases := []struct {
		in   itemsync.CategorizeInput
		want string
	}{
		{itemsync.CategorizeInput{Description: "IFOOD *RESTAURANTE BOM"}, "09020000"},
		{itemsync.CategorizeInput{Description: "UBER *TRIP HELP.UBER.COM"}, "11010000"},
		{itemsync.CategorizeInput{Description: "PAGTO ELETRON ENEL SP"}, "07060000"},
		{itemsync.CategorizeInput{Description: "TARIFA PACOTE SERVIÇOS"}, "19010000"},
		{itemsync.CategorizeInput{Description: "SALÁRIO ACME LTDA", Credit: true}, "01010000"},
		{itemsync.CategorizeInput{Description: "PIX ENVIADO JOAO SILVA", OperationType: "PIX"}, "05010000"},
		{itemsync.CategorizeInput{Description: "TED ENVIADA 341 0001", OperationType: "TED"}, "05020000"},
		{itemsync.CategorizeInput{Description: "COMPRA CARTAO 1234", MCC: 5912}, "14010000"},
		{itemsync.CategorizeInput{Description: "LOJA XPTO", MerchantName: "Drogasil S.A."}, "14010000"},
		{itemsync.CategorizeInput{Description: "LOJA XPTO", MerchantCat: "Supermercado"}, "09030000"},
		// The directory's category of the merchant's CNAE: after the MCC, before the words the
		// institution sent as the merchant's category.
		{itemsync.CategorizeInput{Description: "PIX ENVIADO LOJA XPTO", OperationType: "PIX", DirectoryCategory: "09040000", MerchantCat: "Supermercado"}, "09040000"},
		{itemsync.CategorizeInput{Description: "COMPRA CARTAO", MCC: 5912, DirectoryCategory: "09040000"}, "14010000"},
		{itemsync.CategorizeInput{Description: "PAGAMENTO DE TITULO 2345"}, "05050000"},
		{itemsync.CategorizeInput{Description: "NETFLIX.COM"}, "16010000"},
		{itemsync.CategorizeInput{Description: "SOMETHING UNKNOWN"}, ""},
	}
	for _, tc := range cases {
		if got := itemsync.Categorize(tc.in); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The categorizer's hit rate on the sandbox history; the figure goes in the issue note.
func TestCategorizerHitRateOnSandboxData(t *testing.T) {
	snap := sandbox.Generate(uuid.New(), 0, "user-ok", 1, time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	hit := 0
	for _, tx := range snap.Transactions {
		in := itemsync.CategorizeInput{Description: tx.Description, Credit: tx.Type == "CREDIT"}
		if tx.Merchant != nil {
			in.MerchantName = tx.Merchant.Name
			if tx.Merchant.Category != nil {
				in.MerchantCat = *tx.Merchant.Category
			}
		}
		if tx.CreditCardMetadata != nil && tx.CreditCardMetadata.PayeeMCC != nil {
			in.MCC = *tx.CreditCardMetadata.PayeeMCC
		}
		if tx.OperationType != nil {
			in.OperationType = *tx.OperationType
		}
		if itemsync.Categorize(in) != "" {
			hit++
		}
	}
	rate := float64(hit) / float64(len(snap.Transactions))
	t.Logf("categorized %d of %d sandbox transactions (%.1f%%)", hit, len(snap.Transactions), 100*rate)
	if rate < 0.9 {
		t.Fatalf("hit rate %.1f%%, want at least 90%%", 100*rate)
	}
}
