-- What caused a step of an intent's status history when it was not the payer, the
-- institution or the engine's own steps: 'SANDBOX_CONTROL' for a sandbox control move
-- (POST /sandbox/payments/{kind}/{id}/status); null for every other step.
ALTER TABLE payment_intent_steps ADD COLUMN cause text;
