package rest_test

// scanPaymentControlRoutes are the sandbox payment moves in the bad-input
// scan. Their bodies ask for a move the fixtures' tables refuse, so the scan's valid calls
// change nothing the other routes read.
func scanPaymentControlRoutes(f map[string]string) map[string]scanRoute {
	move := map[string]any{"status": "REFUNDED", "errorDetail": map[string]any{"code": "SETTLEMENT_FAILED", "description": "x", "detail": "x"}}
	return map[string]scanRoute{
		"POST /sandbox/payments/payment-requests/{id}/status":       {ids: []string{"request"}, body: move},
		"POST /sandbox/payments/payment-intents/{id}/status":        {ids: []string{"intent"}, body: move},
		"POST /sandbox/payments/scheduled-payments/{id}/status":     {ids: []string{"schedule"}, body: move},
		"POST /sandbox/payments/automatic-pix-payments/{id}/status": {ids: []string{"charge"}, body: move},
		"POST /sandbox/payments/boletos/{id}/status":                {ids: []string{"boleto"}, body: move},
	}
}
