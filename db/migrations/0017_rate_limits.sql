-- Rate-limit counters shared by every replica on this database: one row per limit group,
-- client IP and one-minute window. Unlogged: a counter lost in a crash costs nothing, and
-- each request writes one row.
CREATE UNLOGGED TABLE rate_limit_counts (
    grp          text        NOT NULL,
    ip           text        NOT NULL,
    window_start timestamptz NOT NULL,
    count        integer     NOT NULL,
    PRIMARY KEY (grp, ip, window_start)
);
CREATE INDEX rate_limit_counts_window ON rate_limit_counts (window_start);
