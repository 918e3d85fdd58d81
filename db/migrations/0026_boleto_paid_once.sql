-- A boleto this service issued is paid at most once: the payment request that pays it
-- names it, and at most one request that is not over (ERROR, EXPIRED, CANCELED or deleted
-- free it) may name a given boleto. The engine checks first and answers with the holder;
-- this index is the last word when two requests race.
ALTER TABLE payment_requests ADD COLUMN boleto_id uuid REFERENCES boletos (id);

-- Requests made before: each boleto goes to one live request, the one that paid it if any,
-- else one being paid, else the oldest. Duplicates already made keep no boleto_id (they
-- happened; the index must still build); settlement re-checks the boleto for them.
UPDATE payment_requests p SET boleto_id = pick.boleto_id
FROM (
    SELECT DISTINCT ON (b.id) b.id AS boleto_id, r.id AS request_id
    FROM payment_requests r JOIN boletos b ON b.barcode = r.boleto ->> 'barcode'
    WHERE r.boleto IS NOT NULL AND r.deleted_at IS NULL AND r.status NOT IN ('ERROR', 'EXPIRED', 'CANCELED')
    ORDER BY b.id, CASE WHEN r.status IN ('COMPLETED', 'REFUND_IN_PROGRESS', 'REFUNDED', 'REFUND_ERROR') THEN 0
        WHEN r.status <> 'CREATED' THEN 1 ELSE 2 END, r.created_at, r.id
) pick
WHERE p.id = pick.request_id;

CREATE UNIQUE INDEX payment_requests_boleto_once ON payment_requests (boleto_id)
    WHERE boleto_id IS NOT NULL AND deleted_at IS NULL AND status NOT IN ('ERROR', 'EXPIRED', 'CANCELED');

-- Automatic PIX: at most one charge per calendar period of the authorization's interval.
-- period_start is the first day of the charge's period and original_date the date it was
-- first scheduled for; a retry moves date but keeps both, so it stays in its period and
-- its retry window counts from the original date. A canceled charge frees its period; the
-- first payment (made with the authorization) is outside the periods.
ALTER TABLE automatic_pix_payments ADD COLUMN original_date date;
ALTER TABLE automatic_pix_payments ADD COLUMN period_start date;
UPDATE automatic_pix_payments SET original_date = date;
ALTER TABLE automatic_pix_payments ALTER COLUMN original_date SET NOT NULL;

-- Charges made before: the oldest live charge of each period holds it; later ones in the
-- same period (already made) keep no period_start.
UPDATE automatic_pix_payments a SET period_start = pick.period_start
FROM (
    SELECT DISTINCT ON (c.request_id, c.period_start) c.id, c.period_start
    FROM (
        SELECT x.id, x.request_id, x.created_at, CASE r.automatic_pix ->> 'interval'
            WHEN 'WEEKLY' THEN date_trunc('week', x.date::timestamp)::date
            WHEN 'MONTHLY' THEN date_trunc('month', x.date::timestamp)::date
            WHEN 'QUARTERLY' THEN date_trunc('quarter', x.date::timestamp)::date
            WHEN 'SEMESTER' THEN (date_trunc('year', x.date::timestamp)
                + CASE WHEN extract(month FROM x.date) > 6 THEN interval '6 months' ELSE interval '0 months' END)::date
            WHEN 'YEARLY' THEN date_trunc('year', x.date::timestamp)::date
        END AS period_start
        FROM automatic_pix_payments x JOIN payment_requests r ON r.id = x.request_id
        WHERE x.status <> 'CANCELED' AND NOT x.is_first
    ) c
    WHERE c.period_start IS NOT NULL
    ORDER BY c.request_id, c.period_start, c.created_at, c.id
) pick
WHERE a.id = pick.id;

CREATE UNIQUE INDEX automatic_pix_payments_one_per_period ON automatic_pix_payments (request_id, period_start)
    WHERE period_start IS NOT NULL AND status <> 'CANCELED';
