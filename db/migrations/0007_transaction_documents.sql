-- A transaction row keeps the exact document the API serves: the sync's document with the
-- row's timestamps and the client's category laid over it. Building that per row at read
-- time cost a third of the read throughput; now a page is read as stored, and the few
-- writes that change a row (a later sync, a category choice) rebuild its document.
UPDATE transactions t SET data = t.data || jsonb_build_object(
        'createdAt', to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    || CASE WHEN t.user_category_id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('categoryId', t.user_category_id,
        'category', (SELECT description_translated FROM categories WHERE id = t.user_category_id)) END;
