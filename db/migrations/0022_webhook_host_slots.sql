-- The per-host cap on concurrent webhook deliveries, shared by every replica on this
-- database: a delivery holds one of a host's numbered slots while it sends, until it ends
-- or its lease (the delivery's longest run) passes, so a dead replica's slots free
-- themselves. Unlogged: after a crash every slot is free, which is what it should be.
CREATE UNLOGGED TABLE webhook_host_slots (
    host       text        NOT NULL,
    slot       smallint    NOT NULL,
    holder     uuid        NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (host, slot)
);
