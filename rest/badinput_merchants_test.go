package rest_test

import "net/url"

// GET /merchants in the bad-input scan: a reference lookup, no application's resource; the
// scan sends hostile values in place of cnpjs (one of two real CNPJs being the baseline).
var scanMerchants = scanRoute{query: []string{"cnpjs"}, base: url.Values{"cnpjs": {"07.665.418/0001-67,P2N9G29X000102"}}, shared: true}
