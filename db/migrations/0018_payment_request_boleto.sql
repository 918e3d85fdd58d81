-- A payment request that pays a boleto keeps the boleto's line, barcode, amount and due date.
ALTER TABLE payment_requests ADD COLUMN boleto jsonb;
