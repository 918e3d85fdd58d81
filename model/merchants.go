package model

// MerchantLookup is the answer of GET /merchants: each asked CNPJ once, in one of the three
// lists, found merchants in the shape transactions carry.
type MerchantLookup struct {
	FoundMerchants    []*Merchant `json:"foundMerchants"`
	NotFoundMerchants []string    `json:"notFoundMerchants"`
	InvalidCnpjs      []string    `json:"invalidCnpjs"`
}
