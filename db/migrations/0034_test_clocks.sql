-- Test clocks (docs/sandbox.md "Test clocks"): a sandbox application's frozen times. The
-- due work of an object created on a clock waits in the River queue test_clock, which no
-- worker serves, with its scheduled_at in clock time; an advance runs it in time order.
CREATE TABLE test_clocks (
    id          uuid PRIMARY KEY,
    client_id   uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    name        text NOT NULL,
    frozen_time timestamptz NOT NULL,
    -- The time an advance under way goes to; NULL when the clock is ready.
    target_time timestamptz,
    status      text NOT NULL CHECK (status IN ('ready', 'advancing')),
    created_at  timestamptz NOT NULL
);
CREATE INDEX test_clocks_client ON test_clocks (client_id, created_at);

ALTER TABLE payment_requests ADD COLUMN test_clock_id uuid REFERENCES test_clocks (id) ON DELETE SET NULL;
