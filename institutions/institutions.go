// Package institutions lists the institution providers this build of Ponte runs: the one
// place that knows them all, so the server and the tests wire in the same ones.
package institutions

import (
	"ponte/itemsync"
	"ponte/model"
	"ponte/sandbox"
	"ponte/statements"
)

// All is every provider, by the name its connectors give.
func All() map[string]itemsync.Institution {
	return map[string]itemsync.Institution{
		sandbox.Provider:    sandbox.Institution{},
		statements.Provider: statements.Institution{},
	}
}

// Catalogue is every provider's connectors, served at publicURL.
func Catalogue(publicURL string) []model.Connector {
	var list []model.Connector
	for _, inst := range All() {
		list = append(list, inst.Connectors(publicURL)...)
	}
	return list
}
