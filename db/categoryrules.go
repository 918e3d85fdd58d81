package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// MaxCategoryRules is how many rules one application may have.
const MaxCategoryRules = 1000

const categoryRuleColumns = `r.id, r.description, r.category_id, c.description, r.client_id, r.transaction_type,
	r.account_type, r.match_type, r.created_at, r.folded, r.seq`

func scanCategoryRule(r pgx.CollectableRow, extra ...any) (*model.CategoryRule, error) {
	cr := &model.CategoryRule{}
	var at time.Time
	err := r.Scan(append([]any{&cr.ID, &cr.Description, &cr.CategoryID, &cr.Category, &cr.ClientID, &cr.TransactionType,
		&cr.AccountType, &cr.MatchType, &at, &cr.Folded, &cr.Seq}, extra...)...)
	cr.CreatedAt = model.NewTime(at)
	return cr, err
}

// lockCategoryRules serializes what reads an application's rules against what changes
// them: recategorizing takes it exclusively, so a sync that read the rules before a change
// commits before the recategorization that follows the change reads its transactions.
func (c *conn) lockCategoryRules(ctx context.Context, clientID uuid.UUID, shared bool) error {
	fn := "pg_advisory_xact_lock"
	if shared {
		fn = "pg_advisory_xact_lock_shared"
	}
	_, err := c.pg.Exec(ctx, `SELECT `+fn+`(hashtextextended($1::text, 39))`, clientID)
	return err
}

// ListCategoryRules pages an application's rules, oldest first.
func (c *conn) ListCategoryRules(ctx context.Context, clientID uuid.UUID, limit, offset int) ([]*model.CategoryRule, int, error) {
	const from = ` FROM category_rules r JOIN categories c ON c.id = r.category_id WHERE r.client_id = $1`
	return pageWithTotal(ctx, c.pg, `SELECT `+categoryRuleColumns+`, count(*) OVER ()`+from+` ORDER BY r.seq LIMIT $2 OFFSET $3`,
		`SELECT count(*)`+from, 1, []any{clientID, limit, offset}, offset,
		func(r pgx.CollectableRow, total *int) (*model.CategoryRule, error) { return scanCategoryRule(r, total) })
}

// ClientCategoryRules reads every rule of an application for a sync, holding the rules'
// shared lock until the sync's transaction ends.
func (tx *Tx) ClientCategoryRules(ctx context.Context, clientID uuid.UUID) ([]*model.CategoryRule, error) {
	if err := tx.lockCategoryRules(ctx, clientID, true); err != nil {
		return nil, err
	}
	rows, err := tx.pg.Query(ctx, `SELECT `+categoryRuleColumns+` FROM category_rules r JOIN categories c ON c.id = r.category_id
		WHERE r.client_id = $1 ORDER BY r.seq`, clientID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.CategoryRule, error) { return scanCategoryRule(r) })
}

// InsertCategoryRule stores a new rule; it fails with CATEGORY_RULE_LIMIT_EXCEEDED when
// the application has MaxCategoryRules, and CATEGORY_RULE_ALREADY_EXISTS for a duplicate.
func (tx *Tx) InsertCategoryRule(ctx context.Context, r *model.CategoryRule) error {
	if err := tx.lockCategoryRules(ctx, r.ClientID, false); err != nil {
		return err
	}
	var n int
	if err := tx.pg.QueryRow(ctx, `SELECT count(*) FROM category_rules WHERE client_id = $1`, r.ClientID).Scan(&n); err != nil {
		return err
	}
	if n >= MaxCategoryRules {
		return model.Fail(model.CodeCategoryRuleLimit, "The application has %d category rules, the most it may have; delete one first.", n)
	}
	var at time.Time
	err := tx.pg.QueryRow(ctx, `INSERT INTO category_rules (id, client_id, description, folded, category_id, transaction_type,
			account_type, match_type, rank)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT DO NOTHING
		RETURNING seq, created_at, (SELECT description FROM categories WHERE id = $5)`,
		r.ID, r.ClientID, r.Description, r.Folded, r.CategoryID, r.TransactionType, r.AccountType, r.MatchType,
		model.MatchRank(r.MatchType)).Scan(&r.Seq, &at, &r.Category)
	if isNoRows(err) {
		return model.Fail(model.CodeCategoryRuleExists, "A rule with this description, matchType, transactionType and accountType already exists.")
	}
	r.CreatedAt = model.NewTime(at)
	return err
}

// DeleteCategoryRule removes one of the application's rules and answers it as it was;
// found is false when the application has no rule with the id.
func (tx *Tx) DeleteCategoryRule(ctx context.Context, clientID, id uuid.UUID) (*model.CategoryRule, bool, error) {
	if err := tx.lockCategoryRules(ctx, clientID, false); err != nil {
		return nil, false, err
	}
	rows, err := tx.pg.Query(ctx, `WITH gone AS (DELETE FROM category_rules WHERE id = $1 AND client_id = $2 RETURNING *)
		SELECT `+categoryRuleColumns+` FROM gone r JOIN categories c ON c.id = r.category_id`, id, clientID)
	if err != nil {
		return nil, false, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.CategoryRule, error) { return scanCategoryRule(r) })
	if err != nil || len(list) == 0 {
		return nil, false, err
	}
	return list[0], true, nil
}

// Recategorized is a transaction whose category a recategorization changed.
type Recategorized struct {
	ID, Account, Item uuid.UUID
}

// RecategorizeClient gives every transaction of the application that the client did not
// categorize by hand the category its rules decide (the most specific match type, then the
// longer description, then the newer rule), or else the automatic one, in one statement,
// and returns the transactions that changed. Exact rules are joined by equality (a hash
// join), the others tested pair by pair; DISTINCT ON keeps each transaction's best.
func (tx *Tx) RecategorizeClient(ctx context.Context, clientID uuid.UUID, now time.Time) ([]Recategorized, error) {
	if err := tx.lockCategoryRules(ctx, clientID, false); err != nil {
		return nil, err
	}
	rows, err := tx.pg.Query(ctx, `WITH rules AS MATERIALIZED (
			SELECT id, folded, category_id, transaction_type, account_type, match_type, rank, seq
			FROM category_rules WHERE client_id = $1),
		base AS MATERIALIZED (
			SELECT t.id, t.item_id, t.match_text, t.type, a.subtype, t.category_id, t.category_rule_id, t.auto_category_id
			FROM items i JOIN accounts a ON a.item_id = i.id JOIN transactions t ON t.account_id = a.id
			WHERE i.client_id = $1 AND t.user_category_id IS NULL),
		pairs AS (
			SELECT b.id, r.id AS rule_id, r.category_id, r.rank, length(r.folded) AS len, r.seq
			FROM base b JOIN rules r ON r.rank = 0 AND r.folded = b.match_text
			WHERE (r.transaction_type IS NULL OR r.transaction_type = b.type) AND (r.account_type IS NULL OR r.account_type = b.subtype)
			UNION ALL
			SELECT b.id, r.id, r.category_id, r.rank, length(r.folded), r.seq
			FROM base b JOIN rules r ON r.rank > 0
				AND (r.transaction_type IS NULL OR r.transaction_type = b.type) AND (r.account_type IS NULL OR r.account_type = b.subtype)
				AND CASE r.match_type WHEN 'startsWith' THEN starts_with(b.match_text, r.folded)
					WHEN 'endsWith' THEN right(b.match_text, length(r.folded)) = r.folded
					ELSE strpos(b.match_text, r.folded) > 0 END),
		best AS (
			SELECT DISTINCT ON (id) id, rule_id, category_id FROM pairs ORDER BY id, rank, len DESC, seq DESC),
		cand AS (
			SELECT b.id, b.item_id, b.category_id AS old_cat, b.category_rule_id AS old_rule, h.rule_id,
				coalesce(h.category_id, b.auto_category_id) AS new_cat
			FROM base b LEFT JOIN best h ON h.id = b.id)
		UPDATE transactions t SET category_id = c.new_cat, category_rule_id = c.rule_id, content_hash = NULL, updated_at = $2,
			data = ((t.data::jsonb - 'categoryOrigin') || jsonb_build_object('categoryId', c.new_cat, 'category', cat.description_translated, 'updatedAt', $3::text)
				|| CASE WHEN c.rule_id IS NOT NULL THEN jsonb_build_object('categoryOrigin', jsonb_build_object('type', 'RULE', 'ruleId', c.rule_id))
					WHEN c.new_cat IS NOT NULL THEN '{"categoryOrigin": {"type": "AUTOMATIC"}}'::jsonb ELSE '{}'::jsonb END)::text
		FROM cand c LEFT JOIN categories cat ON cat.id = c.new_cat
		WHERE t.id = c.id AND t.item_id = c.item_id AND (c.new_cat IS DISTINCT FROM c.old_cat OR c.rule_id IS DISTINCT FROM c.old_rule)
		RETURNING t.id, t.account_id, t.item_id`, clientID, now, model.NewTime(now).Format(model.TimeLayout))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[Recategorized])
}

// ItemWebhookURLs maps items to their webhook URL (absent when none is set).
func (c *conn) ItemWebhookURLs(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*string, error) {
	rows, err := c.pg.Query(ctx, `SELECT id, webhook_url FROM items WHERE id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct {
		ID  uuid.UUID
		URL *string
	}])
	out := make(map[uuid.UUID]*string, len(list))
	for _, r := range list {
		out[r.ID] = r.URL
	}
	return out, err
}
