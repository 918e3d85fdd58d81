-- Webhook custom headers often carry credentials (Authorization), so they are kept sealed
-- under the master key, like item credentials, in one place: the webhook. The key is the
-- service's, not the database's, so SQL cannot seal the headers already stored: they move to
-- headers_plaintext, which the service seals into headers_sealed and empties at start
-- (webhooks.Engine.SealStoredHeaders). Nothing writes headers_plaintext any more.
ALTER TABLE webhooks RENAME COLUMN headers TO headers_plaintext;
ALTER TABLE webhooks ALTER COLUMN headers_plaintext DROP NOT NULL, ALTER COLUMN headers_plaintext DROP DEFAULT;
UPDATE webhooks SET headers_plaintext = NULL WHERE headers_plaintext = '{}';
ALTER TABLE webhooks ADD COLUMN headers_sealed bytea;

-- A delivery reads its webhook's headers when it is sent; every delivery row held a copy.
ALTER TABLE webhook_deliveries DROP COLUMN headers;
