-- Issuing a Connect Token that names an origin deletes the origins whose tokens all
-- expired, oldest first: this index finds them without reading the table.
CREATE INDEX browser_origins_expires_at ON browser_origins (expires_at);
