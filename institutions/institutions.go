// Package institutions lists the institution providers this build of Ponte runs: the one
// place that knows them all, so the server and the tests wire in the same ones.
package institutions

import (
	"ponte/itemsync"
	"ponte/model"
	"ponte/sandbox"
	"ponte/statements"
)

// All is every provider, by the name its connectors give. users finds the applications'
// custom sandbox users (the store's SandboxUserDescription); nil leaves the sandbox its
// seeded scenarios only.
func All(users sandbox.UserLookup) map[string]itemsync.Institution {
	return map[string]itemsync.Institution{
		sandbox.Provider:    sandbox.Institution{Users: users},
		statements.Provider: statements.Institution{},
	}
}

// Catalogue is every provider's connectors, served at publicURL.
func Catalogue(publicURL string) []model.Connector {
	var list []model.Connector
	for _, inst := range All(nil) {
		list = append(list, inst.Connectors(publicURL)...)
	}
	return list
}
