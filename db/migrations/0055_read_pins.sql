-- The WAL position after each client's last write, on the primary: a read replica serves a
-- client's reads only once it has replayed past it, so every instance of the service sends
-- a client who has just written to the primary, whichever instance took the write.
CREATE TABLE read_pins (
    client_id uuid PRIMARY KEY,
    lsn pg_lsn NOT NULL
);
