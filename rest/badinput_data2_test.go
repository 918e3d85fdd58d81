package rest_test

// The bad-input scan's routes of sandbox control of bills, kept apart:
// badinput_test.go is near its size limit.

// addScanRoutesData2 adds the routes of this part to the scan's table.
func addScanRoutesData2(out map[string]scanRoute, f map[string]string) {
	out["GET /sandbox/items/{id}/bills"] = scanRoute{ids: []string{"item"}}
	out["POST /sandbox/items/{id}/bills"] = scanRoute{ids: []string{"item"}, body: map[string]any{"bills": []any{map[string]any{
		"accountId": f["card"], "dueDate": "2026-02-10", "billClosingDate": "2026-02-01", "totalAmount": 120.5, "minimumPaymentAmount": 12}}}}
	out["PATCH /sandbox/items/{id}/bills/{billId}"] = scanRoute{ids: []string{"item", "bill"}, body: map[string]any{
		"dueDate": "2026-02-11", "totalAmount": 99, "minimumPaymentAmount": 9}}
	out["DELETE /sandbox/items/{id}/bills/{billId}"] = scanRoute{ids: []string{"item", "bill"}}
}

// scanData2Routes gives the bills control routes as a table of their own.
func scanData2Routes(f map[string]string) map[string]scanRoute {
	out := map[string]scanRoute{}
	addScanRoutesData2(out, f)
	return out
}
