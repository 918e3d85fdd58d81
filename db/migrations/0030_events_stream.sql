-- The event stream (GET /sandbox/events/stream) reads the outbox in commit order with a
-- cursor. created_at cannot be that cursor: it is set before the writing transaction
-- commits, so a long transaction commits rows older than ones a reader has already passed
-- (and test clocks will write clock time there). xid is the writing transaction's id and
-- seq the order of rows within it: a reader takes only rows whose transaction is older
-- than every transaction still running (pg_snapshot_xmin), which therefore can no longer
-- be joined by a row it would sort before (db/events_stream.go).
--
-- Both columns are left NULL on existing rows, so the migration rewrites nothing: a stream
-- starts at the present, and a default set after the column applies to new rows only.
ALTER TABLE events ADD COLUMN xid xid8;
ALTER TABLE events ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
CREATE SEQUENCE events_seq AS bigint;
ALTER TABLE events ADD COLUMN seq bigint;
ALTER TABLE events ALTER COLUMN seq SET DEFAULT nextval('events_seq');
ALTER SEQUENCE events_seq OWNED BY events.seq;
CREATE INDEX events_stream ON events (client_id, xid, seq) WHERE xid IS NOT NULL;

-- An event fired on demand through the sandbox control surface (POST /sandbox/events)
-- rather than by a change: the event record says so (Event.sandboxControl).
ALTER TABLE events ADD COLUMN control boolean NOT NULL DEFAULT false;
