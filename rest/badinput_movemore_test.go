package rest_test

// scanTransferMoveRoutes are the sandbox moves of smart transfer payments and bulk
// payments in the bad-input scan. Their body asks for a move neither table lists, so the
// scan's valid calls change nothing the other routes read.
func scanTransferMoveRoutes(f map[string]string) map[string]scanRoute {
	move := map[string]any{"status": "REFUNDED", "errorDetail": map[string]any{"code": "SETTLEMENT_FAILED", "description": "x", "detail": "x"}}
	return map[string]scanRoute{
		"POST /sandbox/payments/smart-transfer-payments/{id}/status": {ids: []string{"stPayment"}, body: move},
		"POST /sandbox/payments/bulk-payments/{id}/status":           {ids: []string{"bulk"}, body: move},
	}
}
