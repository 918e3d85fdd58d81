-- Refunds of completed payment requests: what was refunded so far, and the refund under way.
ALTER TABLE payment_requests ADD COLUMN refunded_amount numeric(14,2) NOT NULL DEFAULT 0;
ALTER TABLE payment_requests ADD COLUMN refund_pending numeric(14,2);
