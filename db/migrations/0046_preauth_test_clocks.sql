-- Smart transfer pre-authorizations on a test clock (docs/test-clocks.md): a sandbox
-- pre-authorization created with testClockId, and the payments made under it, take their
-- dates from the clock, so its limits' days, weeks, months and years are the clock's. A
-- deleted clock leaves its pre-authorizations to real time.
ALTER TABLE smart_transfer_preauthorizations ADD COLUMN test_clock_id uuid REFERENCES test_clocks (id) ON DELETE SET NULL;
CREATE INDEX smart_transfer_preauthorizations_test_clock ON smart_transfer_preauthorizations (test_clock_id) WHERE test_clock_id IS NOT NULL;
