// Package brdocs is the arithmetic of Brazilian documents: CPF and CNPJ (numeric and
// alphanumeric) check digits, FEBRABAN boleto barcodes and typed lines (bank and utility
// bills), and the PIX BR Code (EMV merchant-presented payload with its CRC).
//
// It is pure: the standard library only, no state, no I/O, so the domain and the sandbox
// share one copy and its rules are tested once, here. Amounts are int64 centavos. Errors
// are sentences for the caller to put after a field's name; turning them into API error
// codes is the caller's business.
package brdocs
