package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"ponte/model"
)

func (d *DB) categoryQuery(dest any) *bun.SelectQuery {
	return d.bun.NewSelect().Model(dest).
		ColumnExpr("category.*, parent.description AS parent_description").
		Join("LEFT JOIN categories AS parent ON parent.id = category.parent_id")
}

// ListCategories lists categories in id order (families before their children), all of
// them or the children of parentID.
func (d *DB) ListCategories(ctx context.Context, parentID *string, limit, offset int) ([]*model.Category, int, error) {
	var list []*model.Category
	q := d.categoryQuery(&list).Order("category.id")
	if parentID != nil {
		q = q.Where("category.parent_id = ?", *parentID)
	}
	if limit > 0 {
		q = q.Limit(int64(limit)).Offset(int64(offset))
	}
	total, err := q.ScanAndCount(ctx)
	return list, int(total), err
}

// Category reads one category; found is false when there is none.
func (d *DB) Category(ctx context.Context, id string) (*model.Category, bool, error) {
	c := new(model.Category)
	err := d.categoryQuery(c).Where("category.id = ?", id).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return c, err == nil, err
}

// SeedCategories writes the category tree; ids are stable, so descriptions are refreshed.
func (d *DB) SeedCategories(ctx context.Context, list []model.Category) error {
	if len(list) == 0 {
		return nil
	}
	_, err := d.bun.NewInsert().Model(&list).
		On("CONFLICT (id) DO UPDATE").
		Set("description = EXCLUDED.description, description_translated = EXCLUDED.description_translated, parent_id = EXCLUDED.parent_id").
		Exec(ctx)
	return err
}

// Seed writes the connector catalogue and the category tree.
func (d *DB) Seed(ctx context.Context, connectors []model.Connector) error {
	if err := d.SeedCategories(ctx, Categories); err != nil {
		return err
	}
	return d.SeedConnectors(ctx, connectors)
}

// CategoryNames maps every category id to its English name, the one transactions carry.
func (d *DB) CategoryNames(ctx context.Context) (map[string]string, error) {
	rows, err := d.pg.Query(ctx, `SELECT id, description_translated FROM categories`)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ ID, Name string }])
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(list))
	for _, c := range list {
		names[c.ID] = c.Name
	}
	return names, nil
}
