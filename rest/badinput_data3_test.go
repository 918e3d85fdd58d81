package rest_test

// The bad-input scan's routes of sandbox control of investments and of the transaction
// changes' history, kept apart: badinput_test.go is at its size limit.

// scanData3Routes gives those routes as a table of their own.
func scanData3Routes(f map[string]string) map[string]scanRoute {
	return map[string]scanRoute{
		"GET /sandbox/items/{id}/transactions": {ids: []string{"item"}},
		"GET /sandbox/items/{id}/investments":  {ids: []string{"item"}},
		"POST /sandbox/items/{id}/investments": {ids: []string{"item"}, body: map[string]any{"investments": []any{map[string]any{
			"name": "CDB Scan", "type": "FIXED_INCOME", "subtype": "CDB", "balance": 1000.5, "quantity": 1, "value": 1000.5, "dueDate": "2028-01-10T00:00:00.000Z"}}}},
		"PATCH /sandbox/items/{id}/investments/{investmentId}": {ids: []string{"item", "investment"}, body: map[string]any{
			"name": "Renamed", "balance": 12.3, "quantity": 2, "value": 6.15}},
		"DELETE /sandbox/items/{id}/investments/{investmentId}": {ids: []string{"item", "investment"}},
		"POST /sandbox/items/{id}/investments/{investmentId}/transactions": {ids: []string{"item", "investment"}, body: map[string]any{
			"transactions": []any{map[string]any{"type": "TRANSFER", "movementType": "DEBIT", "date": "2026-01-10T00:00:00.000Z", "amount": 10.5,
				"quantity": 1, "value": 10.5, "description": "scan"}}}},
		"PATCH /sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}": {ids: []string{"item", "investment", "investmentTx"},
			body: map[string]any{"description": "x", "amount": 3, "date": "2026-01-11T00:00:00.000Z"}},
		"DELETE /sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}": {ids: []string{"item", "investment", "investmentTx"}},
	}
}
