-- Every process caches whether a client application is enabled, and trusts that cache only
-- while it listens on this channel: any change of the flag, however it is made (the
-- operator command, SQL by hand), tells them in the same transaction. The payload is the
-- client id and the transaction id, so a writer can match the acknowledgements.
CREATE FUNCTION ponte_client_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ponte_client_changed',
        COALESCE(NEW.id, OLD.id)::text || ':' || txid_current()::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER client_applications_changed
    AFTER INSERT OR DELETE OR UPDATE OF enabled ON client_applications
    FOR EACH ROW EXECUTE FUNCTION ponte_client_changed();
