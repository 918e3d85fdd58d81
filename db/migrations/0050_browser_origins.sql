-- The origins a live Connect Token names as its options.targetOrigin, each with the latest
-- expiry (real time) of the tokens naming it: a CORS preflight carries no token, so this is
-- how it learns that some token allows its origin. One row per origin, looked up by it.
CREATE TABLE browser_origins (
    origin text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
