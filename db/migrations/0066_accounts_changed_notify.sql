-- Every change of an item's accounts is announced, in its own transaction, on
-- ponte_accounts_changed with the item's id as payload: each process's cache of account
-- lists (db/accountlists.go) drops that item when the change commits. PostgreSQL delivers
-- one notice per item and transaction however many rows moved. A TRUNCATE announces '*':
-- forget every item.
CREATE FUNCTION ponte_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('ponte_accounts_changed', '*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM pg_notify('ponte_accounts_changed', OLD.item_id::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM pg_notify('ponte_accounts_changed', NEW.item_id::text);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER accounts_changed AFTER INSERT OR UPDATE OR DELETE ON accounts
    FOR EACH ROW EXECUTE FUNCTION ponte_accounts_changed();
CREATE TRIGGER accounts_truncated AFTER TRUNCATE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION ponte_accounts_changed();
