package rest_test

// The bad-input scan's entries for the category rules (part R of issue 39), kept beside
// badinput_test.go, which is at its size limit.

func scanCategoryRuleRoutes(f map[string]string) map[string]scanRoute {
	return map[string]scanRoute{
		"GET /categories/rules": {query: []string{"page", "pageSize"}},
		"POST /categories/rules": {body: map[string]any{"description": "Padaria do Zé", "categoryId": f["category"],
			"transactionType": "DEBIT", "accountType": "CHECKING_ACCOUNT", "matchType": "startsWith"}},
		"DELETE /categories/rules/{id}": {ids: []string{"categoryRule"}},
	}
}
