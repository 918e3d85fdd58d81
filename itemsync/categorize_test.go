package itemsync_test

import (
	"testing"

	"ponte/itemsync"
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
