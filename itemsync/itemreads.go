package itemsync

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Reading items: one, a page of them (GET /v2/items and GraphQL's itemConnection), and an
// Open Finance item's resources.

// Get reads one item.
func (e *Engine) Get(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := caller(ctx, auth.ReadItem, id)
	if err != nil {
		return nil, err
	}
	return e.item(ctx, p, id)
}

func (e *Engine) item(ctx context.Context, p *auth.Principal, id uuid.UUID) (*model.Item, error) {
	it, found, err := e.db.Item(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
	}
	return e.withConnector(ctx, it)
}

func (e *Engine) withConnector(ctx context.Context, it *db.ItemRow) (*model.Item, error) {
	c, _, err := e.db.Connector(ctx, it.ConnectorID)
	if err != nil {
		return nil, err
	}
	it.Connector = c
	return &it.Item, nil
}

// List reads a page of GET /v2/items; its next is the cursor of the following page.
func (e *Engine) List(ctx context.Context, f model.ItemFilter, after *string) (*model.ItemPage, error) {
	p, err := caller(ctx, auth.ListItems)
	if err != nil {
		return nil, err
	}
	settings, err := e.db.ClientSettings(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	if !settings.ItemsV2Enabled {
		return nil, model.Fail(model.CodeItemsV2Disabled, "GET /v2/items is disabled for this client application; ask the operator to enable it (ponte clients set ID itemsV2=true).")
	}
	a := ""
	if after != nil {
		a = *after
	}
	items, cursors, err := e.listPage(ctx, p, f, a, ItemsPageSize)
	if err != nil {
		return nil, err
	}
	page := &model.ItemPage{Results: items}
	if len(items) > ItemsPageSize {
		page.Results, page.Next = items[:ItemsPageSize], &cursors[ItemsPageSize-1]
	}
	return page, nil
}

// ListPage reads up to limit+1 items after the cursor (the extra one tells a next page
// exists), with each item's cursor. Connectors are read once per distinct connector.
func (e *Engine) ListPage(ctx context.Context, f model.ItemFilter, after string, limit int) ([]*model.Item, []string, error) {
	p, err := caller(ctx, auth.ListItems)
	if err != nil {
		return nil, nil, err
	}
	return e.listPage(ctx, p, f, after, limit)
}

// CountItems counts the caller's items that match the filter (itemConnection's totalCount).
func (e *Engine) CountItems(ctx context.Context, f model.ItemFilter) (int, error) {
	p, err := caller(ctx, auth.ListItems)
	if err != nil {
		return 0, err
	}
	return e.db.CountItems(ctx, p.ClientID, f)
}

func (e *Engine) listPage(ctx context.Context, p *auth.Principal, f model.ItemFilter, after string, limit int) ([]*model.Item, []string, error) {
	key, err := e.openItemCursor(p, f, after)
	if err != nil {
		return nil, nil, err
	}
	rows, keys, err := e.db.ListItems(ctx, p.ClientID, f, key, limit+1)
	if err != nil {
		return nil, nil, err
	}
	conns := map[int]*model.Connector{}
	out := make([]*model.Item, 0, len(rows))
	cursors := make([]string, 0, len(rows))
	for i, it := range rows {
		c, ok := conns[it.ConnectorID]
		if !ok {
			c, _, err = e.db.Connector(ctx, it.ConnectorID)
			if err != nil {
				return nil, nil, err
			}
			conns[it.ConnectorID] = c
		}
		it.Connector = c
		out = append(out, &it.Item)
		cursors = append(cursors, e.itemCursor(p, f, keys[i]))
	}
	return out, cursors, nil
}

// Resources lists an Open Finance item's resources, optionally of one status, in one page.
func (e *Engine) Resources(ctx context.Context, id uuid.UUID, status *string) (*model.ItemResourcePage, error) {
	p, err := caller(ctx, auth.ReadItem, id)
	if err != nil {
		return nil, err
	}
	it, err := e.item(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if !it.Connector.IsOpenFinance {
		return nil, model.Fail(model.CodeItemNotOpenFinance, "Item %s does not use an Open Finance connector; only those have resources.", id)
	}
	if status != nil && !slices.Contains(model.ResourceStatuses, *status) {
		return nil, model.Fail(model.CodeInvalidParameter, "status must be one of %v (got %q).", model.ResourceStatuses, *status)
	}
	docs, err := e.db.Documents(ctx, id, "resource")
	if err != nil {
		return nil, err
	}
	list := []*model.ItemResource{}
	for _, raw := range docs {
		var r model.ItemResource
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, err
		}
		if status == nil || r.Status == *status {
			list = append(list, &r)
		}
	}
	return &model.ItemResourcePage{Total: len(list), TotalPages: model.ListPages(len(list)), Page: 1, Results: list}, nil
}
