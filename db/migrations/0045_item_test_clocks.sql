-- Items on a test clock (docs/sandbox.md "Test clocks"): a sandbox item created with
-- testClockId takes its dates from the clock, the periodic automatic sync leaves it alone,
-- and the clock's advance starts its automatic sync when it falls due in clock time. A
-- deleted clock leaves its items to real time.
ALTER TABLE items ADD COLUMN test_clock_id uuid REFERENCES test_clocks (id) ON DELETE SET NULL;
CREATE INDEX items_test_clock ON items (test_clock_id, next_auto_sync_at) WHERE test_clock_id IS NOT NULL;
