package itemsync_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// BenchmarkRecategorize1M recategorizes an application's million stored transactions
// after its rules changed (50 rules of every match type), and in the same run rewrites the
// same rows with one plain UPDATE of the same columns: the baseline the recategorization
// is compared with. The target is under a minute. Run with -benchtime=1x.
func BenchmarkRecategorize1M(b *testing.B) {
	env := testsupport.New(b)
	w := newRuleWorld(b, env, "recategorize-bench")
	ctx := context.Background()
	var account string
	for id, sub := range w.accounts {
		if sub == "CHECKING_ACCOUNT" {
			account = id.String()
		}
	}
	templates := []string{"PADARIA DO ZE", "SUPERMERCADO DIA", "POSTO IPIRANGA 123", "PIX ENVIADO MARIA", "UBER TRIP",
		"IFOOD PEDIDO", "FARMACIA RAIA", "NETFLIX.COM", "PAGTO FATURA", "TED RECEBIDA JOAO", "ACADEMIA SMART", "LOJA X",
		"MERCADO LIVRE", "CINEMARK", "SABESP CONTA", "ENEL SP", "ALUGUEL APTO", "CONDOMINIO ED", "SALARIO EMPRESA", "SEM PARAR"}
	arr := "ARRAY["
	for i, s := range templates {
		if i > 0 {
			arr += ","
		}
		arr += "'" + model.FoldText(s) + "'"
	}
	arr += "]"
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		env.Exec(b, `DELETE FROM transactions WHERE item_id = $1`, w.item)
		env.Exec(b, `DELETE FROM category_rules WHERE client_id = $1`, w.app.id)
		env.Exec(b, `INSERT INTO transactions (id, item_id, account_id, date, status, amount, type, category_id, auto_category_id, match_text, data)
			SELECT gen_random_uuid(), $1, $2, now() - g * interval '1 minute', 'POSTED', -1,
				CASE WHEN g % 3 = 0 THEN 'CREDIT' ELSE 'DEBIT' END, '05010000', '05010000', d,
				jsonb_build_object('description', d, 'categoryId', '05010000', 'category', 'PIX', 'categoryOrigin', '{"type":"AUTOMATIC"}'::jsonb)::text
			FROM generate_series(1, 1000000) g, LATERAL (SELECT (`+arr+`)[1 + (g % 20)] || ' ' || (g % 997) AS d) x`, w.item, account)
		env.Exec(b, `ANALYZE transactions`)
		for r := 0; r < 50; r++ {
			match := []string{model.MatchExact, model.MatchContains, model.MatchStartsWith, model.MatchEndsWith, model.MatchContains}[r%5]
			desc := templates[r%20]
			if match == model.MatchExact {
				desc = fmt.Sprintf("%s %d", desc, r)
			} else if match == model.MatchEndsWith {
				desc = fmt.Sprintf("%d", r)
			}
			env.Exec(b, `INSERT INTO category_rules (id, client_id, description, folded, category_id, match_type, rank, transaction_type)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`, model.NewID(), w.app.id, desc, model.FoldText(desc),
				[]string{"17010000", "09040000", "09030000"}[r%3], match, model.MatchRank(match), []any{nil, "DEBIT"}[r%2])
		}
		b.StartTimer()
		start := time.Now()
		if err := env.Sync.Recategorize(ctx, w.app.id); err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		b.StopTimer()
		var ruled, events int
		_ = env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1 AND category_rule_id IS NOT NULL`, w.item).Scan(&ruled)
		_ = env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE client_id = $1 AND event = 'transactions/updated'`, w.app.id).Scan(&events)

		base := time.Now()
		env.Exec(b, `UPDATE transactions t SET category_id = t.auto_category_id, category_rule_id = NULL, updated_at = now(),
			data = (t.data::jsonb || jsonb_build_object('categoryId', t.auto_category_id, 'updatedAt', now()::text))::text
			FROM accounts a JOIN items i ON i.id = a.item_id WHERE a.id = t.account_id AND i.client_id = $1 AND t.user_category_id IS NULL`, w.app.id)
		baseTook := time.Since(base)
		b.ReportMetric(took.Seconds(), "s/recategorize")
		b.ReportMetric(baseTook.Seconds(), "s/plain-update")
		b.ReportMetric(took.Seconds()/baseTook.Seconds(), "x-plain-update")
		b.Logf("recategorized 1,000,000 transactions with 50 rules in %s (%d now by a rule, %d transactions/updated events); a plain UPDATE of the same rows: %s; ratio %.2f",
			took.Round(time.Millisecond), ruled, events, baseTook.Round(time.Millisecond), took.Seconds()/baseTook.Seconds())
		if took > time.Minute {
			b.Errorf("recategorizing took %s, over the minute target", took)
		}
	}
}
