-- GET /transactions filters on billId; every list filter has an index.
CREATE INDEX transactions_account_bill ON transactions (account_id, bill_id) WHERE bill_id IS NOT NULL;
