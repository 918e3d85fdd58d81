-- A login reads a client's stored secret hash from each process's client cache, not from
-- this table (auth's clientLogin): a new hash must reach the listeners as a new enabled
-- flag does (0013), or a replaced secret would go on logging in from a replica that had
-- cached the old one.
DROP TRIGGER client_applications_changed ON client_applications;
CREATE TRIGGER client_applications_changed
    AFTER INSERT OR DELETE OR UPDATE OF enabled, secret_hash ON client_applications
    FOR EACH ROW EXECUTE FUNCTION ponte_client_changed();
