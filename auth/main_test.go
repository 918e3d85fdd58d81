package auth_test

import (
	"testing"

	"ponte/testsupport"
)

// The service's rules that need a database run on the binary's private cluster.
func TestMain(m *testing.M) { testsupport.Main(m) }
