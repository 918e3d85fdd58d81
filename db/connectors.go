package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"ponte/model"
)

// Connectors lists the connectors matching f, ordered by name (by closeness of the name
// when a name is searched), with the total count for the page envelope.
func (d *DB) Connectors(ctx context.Context, f model.ConnectorFilter, limit, offset int) ([]*model.Connector, int, error) {
	var list []*model.Connector
	q := d.bun.NewSelect().Model(&list)
	if len(f.Countries) > 0 {
		q = q.Where("country IN (?)", bun.List(f.Countries))
	}
	if len(f.Types) > 0 {
		q = q.Where("type IN (?)", bun.List(f.Types))
	}
	// Sandbox connectors are left out unless asked for (section 4.2: default false).
	if f.Sandbox == nil || !*f.Sandbox {
		q = q.Where("NOT is_sandbox")
	}
	for col, v := range map[string]*bool{
		"is_open_finance":             f.IsOpenFinance,
		"supports_payment_initiation": f.SupportsPaymentInitiation,
		"supports_smart_transfers":    f.SupportsSmartTransfers,
		"supports_automatic_pix":      f.SupportsAutomaticPix,
	} {
		if v != nil {
			q = q.Where("? = ?", bun.Ident(col), *v)
		}
	}
	if f.Name != nil && *f.Name != "" {
		// Name-alike: a folded substring, or a close word match for misspellings
		// ("itau" finds "Itaú", "bradesko" finds "Bradesco"); % and _ match as typed.
		q = q.Where("(ponte_fold(name) LIKE '%' || ponte_fold(?) || '%' OR strict_word_similarity(ponte_fold(?), ponte_fold(name)) >= 0.5)", likeLiteral(*f.Name), *f.Name).
			OrderExpr("strict_word_similarity(ponte_fold(?), ponte_fold(name)) DESC", *f.Name)
	}
	q = q.Order("name", "id")
	if limit > 0 {
		q = q.Limit(int64(limit)).Offset(int64(offset))
	}
	total, err := q.ScanAndCount(ctx)
	return list, int(total), err
}

// Connector reads one connector; found is false when there is none.
func (c *conn) Connector(ctx context.Context, id int) (*model.Connector, bool, error) {
	out := new(model.Connector)
	err := c.bun.NewSelect().Model(out).Where("id = ?", id).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return out, err == nil, err
}

// SeedConnectors writes the catalogue. Catalogue fields follow the code; health is left as
// it stands because operators change it at run time.
func (d *DB) SeedConnectors(ctx context.Context, list []model.Connector) error {
	if len(list) == 0 {
		return nil
	}
	now := model.NewTime(time.Now())
	rows := make([]model.Connector, len(list))
	for i, c := range list {
		if c.CreatedAt.IsZero() {
			c.CreatedAt = now
		}
		c.UpdatedAt = now
		rows[i] = c
	}
	_, err := d.bun.NewInsert().Model(&rows).
		On("CONFLICT (id) DO UPDATE").
		Set("name = EXCLUDED.name, institution_url = EXCLUDED.institution_url, image_url = EXCLUDED.image_url").
		Set("primary_color = EXCLUDED.primary_color, type = EXCLUDED.type, country = EXCLUDED.country").
		Set("credentials = EXCLUDED.credentials, has_mfa = EXCLUDED.has_mfa, products = EXCLUDED.products").
		Set("product_coverage = EXCLUDED.product_coverage, oauth = EXCLUDED.oauth, oauth_url = EXCLUDED.oauth_url").
		Set("reset_password_url = EXCLUDED.reset_password_url, is_open_finance = EXCLUDED.is_open_finance").
		Set("is_sandbox = EXCLUDED.is_sandbox, supports_payment_initiation = EXCLUDED.supports_payment_initiation").
		Set("supports_scheduled_payments = EXCLUDED.supports_scheduled_payments, supports_smart_transfers = EXCLUDED.supports_smart_transfers").
		Set("supports_boleto_management = EXCLUDED.supports_boleto_management, supports_automatic_pix = EXCLUDED.supports_automatic_pix").
		Set("provider = EXCLUDED.provider, statement_format = EXCLUDED.statement_format").
		Set("updated_at = CASE WHEN (connector.name, connector.credentials, connector.products, connector.oauth_url) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.credentials, EXCLUDED.products, EXCLUDED.oauth_url) THEN EXCLUDED.updated_at ELSE connector.updated_at END").
		Exec(ctx)
	return err
}

// SetConnectorStatus changes a connector's health status inside tx; changed is false when
// it already had that status, found false for an unknown connector.
func (tx *Tx) SetConnectorStatus(ctx context.Context, id int, status string) (found, changed bool, err error) {
	var current string
	err = tx.pg.QueryRow(ctx, `SELECT health->>'status' FROM connectors WHERE id = $1 FOR UPDATE`, id).Scan(&current)
	if isNoRows(err) {
		return false, false, nil
	}
	if err != nil || current == status {
		return err == nil, false, err
	}
	_, err = tx.pg.Exec(ctx, `UPDATE connectors SET health = jsonb_set(health, '{status}', to_jsonb($2::text)) WHERE id = $1`, id, status)
	return true, err == nil, err
}

// EnabledClients lists the enabled client applications, inside tx.
func (tx *Tx) EnabledClients(ctx context.Context) ([]uuid.UUID, error) {
	rows, err := tx.pg.Query(ctx, `SELECT id FROM client_applications WHERE enabled ORDER BY id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}
