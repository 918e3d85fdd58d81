package rest_test

// The custom sandbox users' routes in the bad-input scan (badinput_test.go): the scan
// breaks each field of a good description and each path parameter.

// sandboxUserBody is a good description: every kind of field the rules check.
func sandboxUserBody(username string) map[string]any {
	return map[string]any{"username": username, "password": "segredo-1", "mfa": "SMS",
		"accounts": []any{
			map[string]any{"type": "BANK", "subtype": "CHECKING_ACCOUNT", "number": "12345-6", "name": "Conta", "balance": 1520.75, "currency": "BRL",
				"transactions": []any{map[string]any{"date": "2026-01-05", "description": "PADARIA", "amount": -12.5, "status": "POSTED"}}},
			map[string]any{"type": "CREDIT", "subtype": "CREDIT_CARD", "number": "4321", "balance": 300, "generate": map[string]any{"seed": 7, "size": 5},
				"creditData": map[string]any{"brand": "VISA", "level": "GOLD", "creditLimit": 5000, "availableCreditLimit": 4700, "minimumPayment": 45,
					"balanceCloseDate": "2026-02-03", "balanceDueDate": "2026-02-10", "isLimitFlexible": false, "status": "ACTIVE", "holderType": "MAIN"},
				"bills": []any{map[string]any{"dueDate": "2026-01-10", "closingDate": "2026-01-03", "totalAmount": 812.4, "minimumPayment": 121.86,
					"allowsInstallments": true, "financeCharges": []any{map[string]any{"type": "LATE_PAYMENT_FEE", "amount": 16.25, "additionalInfo": "Multa"}}}}},
		},
		"identity": map[string]any{"fullName": "Ana Teste", "document": "52998224725", "birthDate": "1990-04-01", "emails": []any{"ana@example.com"}, "phones": []any{"+55 11 99999-0000"}},
		"investments": []any{map[string]any{"name": "CDB Banco", "type": "FIXED_INCOME", "balance": 1000,
			"transactions": []any{map[string]any{"date": "2026-01-02", "type": "BUY", "amount": 1000, "quantity": 1, "value": 1000, "description": "APLICACAO CDB"},
				map[string]any{"date": "2026-01-31", "type": "TAX", "amount": 2.75}}}},
		"loans": []any{map[string]any{"productName": "Crédito pessoal", "contractNumber": "C-1", "contractAmount": 5000}},
		"error": map[string]any{"code": "SITE_NOT_AVAILABLE", "step": "COLLECT", "product": "LOANS"},
	}
}

func scanUserRoutes(f map[string]string) map[string]scanRoute {
	return map[string]scanRoute{
		"POST /sandbox/users":              {body: sandboxUserBody("scan-user")},
		"GET /sandbox/users":               {},
		"GET /sandbox/users/{username}":    {ids: []string{"sandboxUser"}},
		"PUT /sandbox/users/{username}":    {ids: []string{"sandboxUser"}, body: sandboxUserBody(f["sandboxUser"])},
		"DELETE /sandbox/users/{username}": {ids: []string{"sandboxUser"}},
	}
}
