package rest_test

import (
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

func mustUUID(s string) uuid.UUID { return uuid.MustParse(s) }
