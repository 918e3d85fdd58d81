-- Boletos on a test clock (docs/sandbox.md "Test clocks"): a sandbox boleto issued with
-- testClockId takes its dates from the clock, the daily sweep leaves it alone, and the
-- clock's advance moves it to OVERDUE and PROTESTED in clock time. A deleted clock leaves
-- its boletos to real time.
ALTER TABLE boletos ADD COLUMN test_clock_id uuid REFERENCES test_clocks (id) ON DELETE SET NULL;
CREATE INDEX boletos_test_clock ON boletos (test_clock_id, due_date) WHERE test_clock_id IS NOT NULL;
