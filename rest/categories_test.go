package rest_test

import (
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

func TestCategories(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "categories").APIKey

	var all model.CategoryPage
	env.Do(t, "GET", "/categories?pageSize=500", key, nil).Want(200).JSON(&all)
	if all.Total < 100 || len(all.Results) != all.Total {
		t.Fatalf("%d categories (%d listed), want at least 100 on one page", all.Total, len(all.Results))
	}
	families := 0
	byID := map[string]*model.Category{}
	for _, c := range all.Results {
		byID[c.ID] = c
		if c.Description == "" || c.DescriptionTranslated == "" {
			t.Fatalf("category %s lacks a description: %+v", c.ID, c)
		}
		if c.ParentID == nil {
			families++
		}
	}
	if families < 12 {
		t.Fatalf("%d top-level families, want about 15", families)
	}
	for _, c := range all.Results {
		if c.ParentID != nil {
			p, ok := byID[*c.ParentID]
			if !ok || p.ParentID != nil {
				t.Fatalf("category %s: parent %v must be a top-level family", c.ID, *c.ParentID)
			}
			if c.ParentDescription == nil || *c.ParentDescription != p.Description {
				t.Fatalf("category %s: parentDescription %v, want %q", c.ID, c.ParentDescription, p.Description)
			}
		}
	}

	var children model.CategoryPage
	env.Do(t, "GET", "/categories?parentId=05000000", key, nil).Want(200).JSON(&children)
	if children.Total == 0 {
		t.Fatal("no children for 05000000")
	}
	for _, c := range children.Results {
		if c.ParentID == nil || *c.ParentID != "05000000" {
			t.Fatalf("child %s has parent %v", c.ID, c.ParentID)
		}
	}

	one := env.Do(t, "GET", "/categories/"+children.Results[0].ID, key, nil).Want(200).Map()
	for _, f := range []string{"id", "description", "descriptionTranslated", "parentId", "parentDescription"} {
		if _, ok := one[f]; !ok {
			t.Errorf("category lacks %s: %v", f, one)
		}
	}
	env.Do(t, "GET", "/categories/99999999", key, nil).WantError(404, "CATEGORY_NOT_FOUND")
	env.Do(t, "GET", "/categories?parent=1", key, nil).WantError(400, "INVALID_PARAMETER")
	var none model.CategoryPage
	env.Do(t, "GET", "/categories?parentId=99999999", key, nil).Want(200).JSON(&none)
	if none.Total != 0 {
		t.Fatalf("unknown parent lists %d", none.Total)
	}
}
