package rest_test

// azItemKind is the fixture an itemId argument of field names: A's bank item, but for
// the SCR report, which only A's SCR item collects.
func azItemKind(field string) string {
	if field == "creditInformation" {
		return "scrItem"
	}
	return "item"
}
