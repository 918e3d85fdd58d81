package collected_test

import (
	"testing"

	"ponte/collected"
	"ponte/model"
)

func catalogueReads(t *testing.T, w *world) {
	t.Run("connectors", func(t *testing.T) {
		public, err := w.eng.Connectors(w.a, nil, nil, nil, nil)
		if err != nil || public.Total == 0 || public.Total != len(public.Results) {
			t.Fatalf("connectors %+v (%v)", public, err)
		}
		for _, c := range public.Results {
			if c.IsSandbox || c.Health.Details != nil {
				t.Fatalf("the default list holds %+v", c)
			}
		}
		withSandbox, err := w.eng.Connectors(w.a, &model.ConnectorFilter{Sandbox: ptr(true)}, ptr(true), nil, nil)
		if err != nil || withSandbox.Total <= public.Total {
			t.Fatalf("with sandbox connectors: %d, without %d (%v)", withSandbox.Total, public.Total, err)
		}
		for _, c := range withSandbox.Results {
			if c.Health.Details == nil {
				t.Fatalf("health details asked for, %s has none", c.Name)
			}
			// Connector 0 ran both applications' syncs, all of them successful.
			if c.ID == 0 && (c.Health.Details.ConnectionsLast6Hours < 2 || c.Health.Details.ErrorRateLast6Hours == nil || *c.Health.Details.ErrorRateLast6Hours != 0) {
				t.Fatalf("connector 0's health %+v", c.Health.Details)
			}
		}
		banks, err := w.eng.Connectors(w.a, &model.ConnectorFilter{Types: []model.ConnectorType{model.ConnectorTypeInvestment}}, nil, nil, nil)
		if err != nil || banks.Total == 0 || banks.Total >= public.Total {
			t.Fatalf("investment connectors %d of %d (%v)", banks.Total, public.Total, err)
		}
		for _, c := range banks.Results {
			if c.Type != model.ConnectorTypeInvestment {
				t.Fatalf("the INVESTMENT list holds %s", c.Type)
			}
		}
		page, err := w.eng.Connectors(w.a, nil, nil, ptr(2), ptr(1))
		if err != nil || page.Total != public.Total || page.Page != 2 || len(page.Results) != 1 || page.Results[0].ID != public.Results[1].ID {
			t.Fatalf("page 2 of size 1: %+v (%v)", page, err)
		}
		_, err = w.eng.Connectors(w.a, &model.ConnectorFilter{Types: []model.ConnectorType{"BANK"}}, nil, nil, nil)
		wantCode(t, "type BANK", err, model.CodeInvalidParameter)
		_, err = w.eng.Connectors(w.a, &model.ConnectorFilter{Countries: []string{"AR"}}, nil, nil, nil)
		wantCode(t, "country AR", err, model.CodeInvalidParameter)
		_, err = w.eng.Connectors(w.none, nil, nil, nil, nil)
		wantCode(t, "no credential", err, model.CodeAPIKeyMissing)
		// A Connect Token lists institutions for the Connect flow.
		if _, err := w.eng.Connectors(w.token, nil, nil, nil, nil); err != nil {
			t.Fatalf("a Connect Token: %v", err)
		}

		c, err := w.eng.Connector(w.a, 0, ptr(true))
		if err != nil || c.ID != 0 || c.Health.Details == nil {
			t.Fatalf("connector 0: %+v (%v)", c, err)
		}
		if c, err := w.eng.Connector(w.a, 0, nil); err != nil || c.Health.Details != nil {
			t.Fatalf("connector 0 without details: %+v (%v)", c, err)
		}
		_, err = w.eng.Connector(w.a, 424242, nil)
		wantCode(t, "an unknown connector", err, model.CodeConnectorNotFound)
	})

	t.Run("validation answers the rules and never the values", func(t *testing.T) {
		res, err := w.eng.ValidateParameters(w.token, 0, map[string]any{"user": "someone", "password": ""})
		if err != nil {
			t.Fatal(err)
		}
		if res.Parameters["user"] != collected.CredentialMask || res.Parameters["password"] != "" || len(res.Errors) != 1 || res.Errors[0].Parameter != "password" {
			t.Fatalf("validation %+v", res)
		}
		if res, err := w.eng.ValidateParameters(w.a, 0, nil); err != nil || len(res.Parameters) != 0 || len(res.Errors) != 2 {
			t.Fatalf("no parameters: %+v (%v)", res, err)
		}
		_, err = w.eng.ValidateParameters(w.a, 424242, nil)
		wantCode(t, "an unknown connector", err, model.CodeConnectorNotFound)
	})

	t.Run("categories", func(t *testing.T) {
		all, err := w.eng.Categories(w.a, nil, nil, ptr(500))
		if err != nil || all.Total == 0 || len(all.Results) != all.Total {
			t.Fatalf("categories %d of %d (%v)", len(all.Results), all.Total, err)
		}
		var parent string
		for _, c := range all.Results {
			if c.ParentID != nil {
				parent = *c.ParentID
				break
			}
		}
		children, err := w.eng.Categories(w.a, &parent, nil, nil)
		if err != nil || children.Total == 0 || children.Total >= all.Total {
			t.Fatalf("children of %s: %d (%v)", parent, children.Total, err)
		}
		for _, c := range children.Results {
			if c.ParentID == nil || *c.ParentID != parent {
				t.Fatalf("a child of %s: %+v", parent, c)
			}
		}
		if c, err := w.eng.Category(w.a, parent); err != nil || c.ID != parent {
			t.Fatalf("category %s: %+v (%v)", parent, c, err)
		}
		_, err = w.eng.Category(w.a, "no-such")
		wantCode(t, "an unknown category", err, model.CodeCategoryNotFound)
		_, err = w.eng.Categories(w.token, nil, nil, nil)
		wantCode(t, "a Connect Token", err, model.CodeForbidden)
		_, err = w.eng.Categories(w.a, nil, ptr(0), nil)
		wantCode(t, "page 0", err, model.CodeInvalidParameter)
	})
}
