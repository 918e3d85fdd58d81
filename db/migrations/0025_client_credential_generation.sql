-- An API key lives two hours and is checked by its signature, so a new secret or a disable
-- alone did not end the keys already issued (a disabled client's came back on enable). Each
-- key carries the generation of its client's credentials when it was issued, and a key
-- older than the client's current generation is refused. The generation moves in the very
-- statement that replaces the secret or disables the client, however that statement is
-- made (the operator command, a start with a new PONTE_CLIENT_SECRET, SQL by hand).
-- Existing rows start at 0, the generation of keys issued before this migration, so those
-- keep working until the client's next change.
ALTER TABLE client_applications ADD COLUMN credential_generation bigint NOT NULL DEFAULT 0;

-- A stronger hash of the same secret (the upgrade at a login) is not a new secret: the
-- statement that stores it sets ponte.same_secret for its transaction, and keys issued
-- under the old hash stay valid.
CREATE FUNCTION ponte_client_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (OLD.enabled AND NOT NEW.enabled)
       OR (NEW.secret_hash IS DISTINCT FROM OLD.secret_hash
           AND current_setting('ponte.same_secret', true) IS DISTINCT FROM 'on') THEN
        NEW.credential_generation := GREATEST(NEW.credential_generation, OLD.credential_generation + 1);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER client_applications_credentials
    BEFORE UPDATE OF enabled, secret_hash ON client_applications
    FOR EACH ROW EXECUTE FUNCTION ponte_client_credentials_changed();

-- Processes cache the generation with the enabled flag (auth's client cache), so a change
-- of it, even made alone by hand to revoke every key, is announced like theirs (0013, 0024).
DROP TRIGGER client_applications_changed ON client_applications;
CREATE TRIGGER client_applications_changed
    AFTER INSERT OR DELETE OR UPDATE OF enabled, secret_hash, credential_generation ON client_applications
    FOR EACH ROW EXECUTE FUNCTION ponte_client_changed();
