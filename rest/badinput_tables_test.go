package rest_test

import (
	"testing"

	"ponte/testsupport"
)

// scanMoreRoutes are route tables kept beside scanRoutes, each in a file of its own, in
// the same form: the routes of one group.
var scanMoreRoutes = []func(f map[string]string) map[string]scanRoute{scanClockRoutes, scanPaymentControlRoutes, scanUserRoutes, scanData2Routes, scanData3Routes, scanCategoryRuleRoutes, scanCreditInfoRoutes, scanTransferMoveRoutes}

// scanFixtures builds one of each resource for client a, the same world the authorization
// matrix builds: the ids the scan aims at.
func scanFixtures(t *testing.T, env *testsupport.Env, a *testsupport.Client) map[string]string {
	env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, a.ID)
	return azFixtures(t, env, a).ids
}
