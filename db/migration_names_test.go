package db_test

import (
	"os"
	"regexp"
	"testing"
)

// TestMigrationNumbersUnique keeps one file per migration number: work merged from two
// branches can pick the same next number, and the order of two such files would then be
// decided by their names alone.
func TestMigrationNumbersUnique(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)
	seen := map[string]string{}
	for _, e := range entries {
		m := name.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("%s: a migration is named NNNN_words.sql", e.Name())
			continue
		}
		if other, ok := seen[m[1]]; ok {
			t.Errorf("%s and %s share the number %s", other, e.Name(), m[1])
		}
		seen[m[1]] = e.Name()
	}
}
