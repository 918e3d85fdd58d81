package db

import (
	"strings"
	"testing"
)

func TestCategoriesTree(t *testing.T) {
	isDigits := func(s string) bool {
		for _, r := range s {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}

	pos := make(map[string]int, len(Categories))   // id -> index
	family := make(map[string]bool)                // ids of top-level categories
	seenDesc := make(map[string]map[string]string) // parent ("" for top) -> pt description -> id
	families := 0

	for i, c := range Categories {
		if len(c.ID) != 8 || !isDigits(c.ID) {
			t.Errorf("category %d: id %q is not 8 digits", i, c.ID)
			continue
		}
		if j, dup := pos[c.ID]; dup {
			t.Errorf("id %s duplicated at positions %d and %d", c.ID, j, i)
		}
		pos[c.ID] = i

		if strings.TrimSpace(c.Description) == "" || strings.TrimSpace(c.DescriptionTranslated) == "" {
			t.Errorf("id %s: empty description (%q / %q)", c.ID, c.Description, c.DescriptionTranslated)
		}
		if c.ParentDescription != nil {
			t.Errorf("id %s: ParentDescription should be nil", c.ID)
		}

		parent := ""
		if c.ParentID == nil {
			families++
			family[c.ID] = true
			if !strings.HasSuffix(c.ID, "000000") || c.ID[:2] == "00" {
				t.Errorf("family id %s must have the form NN000000", c.ID)
			}
		} else {
			parent = *c.ParentID
			j, ok := pos[parent]
			switch {
			case !ok:
				t.Errorf("id %s: parent %s missing or does not precede it", c.ID, parent)
			case !family[parent]:
				t.Errorf("id %s: parent %s is not top-level", c.ID, parent)
			case j >= i:
				t.Errorf("id %s: parent %s does not precede it", c.ID, parent)
			}
			if c.ID[:2] != parent[:min(2, len(parent))] {
				t.Errorf("child id %s does not start with its family's prefix (%s)", c.ID, parent)
			}
			if !strings.HasSuffix(c.ID, "0000") || c.ID[2:4] == "00" {
				t.Errorf("child id %s must have the form NNMM0000 with MM != 00", c.ID)
			}
		}

		if seenDesc[parent] == nil {
			seenDesc[parent] = make(map[string]string)
		}
		key := strings.ToLower(strings.TrimSpace(c.Description))
		if other, dup := seenDesc[parent][key]; dup {
			t.Errorf("description %q duplicated under parent %q (ids %s and %s)", c.Description, parent, other, c.ID)
		}
		seenDesc[parent][key] = c.ID
	}

	if families < 15 {
		t.Errorf("got %d families, want at least 15", families)
	}
	if len(Categories) < 110 {
		t.Errorf("got %d categories, want at least 110", len(Categories))
	}
	for id := range family {
		if len(seenDesc[id]) == 0 {
			t.Errorf("family %s has no children", id)
		}
	}
}
