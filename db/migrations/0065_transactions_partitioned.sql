-- The transactions table is by far the largest (thousands of rows per item, a billion and
-- more for a million items): it becomes 16 hash partitions on item_id. A sync writes one
-- item, so one partition; deleting an item deletes within one; every per-account index
-- (the stored filters) exists per partition, each 1/16 of the whole, so vacuum, index
-- builds and cache stay proportionate. Queries that name the item prune to its partition;
-- those that name only an account or an id probe the 16 small indexes.
--
-- Hash, not range on date: no query reads across items by date, and every sync rewrites
-- a window of recent dates for every item, so date partitions would put all writes in the
-- newest partition and every item's history in all of them. pg_partman creates and
-- retires time (or serial) ranges; a fixed hash layout has nothing for it to maintain.
--
-- The primary key must hold the partition key: (id, item_id). Transaction ids are made
-- per item (name-based UUIDs in the item's or its account's namespace, or random ones for
-- sandbox additions), so two items never share one; every write names (id, item_id).
--
-- An existing table is copied into the new one with its rows, then its key, foreign key
-- and indexes are rebuilt on the partitions (building after the copy is faster than
-- maintaining them during it). It has no triggers, and no other table refers to it.
CREATE TABLE transactions_partitioned (LIKE transactions INCLUDING DEFAULTS INCLUDING STORAGE)
    PARTITION BY HASH (item_id);

DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF transactions_partitioned FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
            'transactions_p' || lpad(i::text, 2, '0'), i);
    END LOOP;
END $$;

INSERT INTO transactions_partitioned SELECT * FROM transactions;
DROP TABLE transactions;
ALTER TABLE transactions_partitioned RENAME TO transactions;

ALTER TABLE transactions ADD PRIMARY KEY (id, item_id);
ALTER TABLE transactions ADD FOREIGN KEY (user_category_id) REFERENCES categories (id);
CREATE INDEX transactions_account_date ON transactions (account_id, date, id);
CREATE INDEX transactions_account_created ON transactions (account_id, created_at);
CREATE INDEX transactions_account_bill ON transactions (account_id, bill_id) WHERE bill_id IS NOT NULL;
-- A partition holds many items: deleting one, and a sync's reads of its item, find its rows here.
CREATE INDEX transactions_item ON transactions (item_id);
ANALYZE transactions;
