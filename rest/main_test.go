package rest_test

import (
	"testing"

	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }
