package itemsync

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// itemCursor is the signed payload of GET /v2/items' and itemConnection's after cursor:
// the exact position (created_at to the microsecond, then id), and the client application
// and filters it was issued for, so it is not replayed on another list. It is signed like
// the other lists' cursors (auth.SignCursor): a forged or altered one is refused.
type itemCursor struct {
	Client    uuid.UUID `json:"k"`
	Filter    string    `json:"f"`
	CreatedAt int64     `json:"c"` // Unix microseconds, PostgreSQL's precision
	ID        uuid.UUID `json:"i"`
}

func itemFilterHash(f model.ItemFilter) string {
	h := sha256.New()
	// %q keeps an absent clientUserId apart from any value of it, "" included.
	if f.ClientUserID != nil {
		fmt.Fprintf(h, "u%q", *f.ClientUserID)
	}
	if f.ConnectorID != nil {
		fmt.Fprintf(h, "c%d", *f.ConnectorID)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func (e *Engine) itemCursor(p *auth.Principal, f model.ItemFilter, k db.ItemKey) string {
	b, _ := json.Marshal(itemCursor{Client: p.ClientID, Filter: itemFilterHash(f), CreatedAt: k.CreatedAt.UnixMicro(), ID: k.ID})
	return e.auth.SignCursor(b)
}

// openItemCursor reads an after cursor; "" starts from the newest item.
func (e *Engine) openItemCursor(p *auth.Principal, f model.ItemFilter, s string) (*db.ItemKey, error) {
	if s == "" {
		return nil, nil
	}
	raw, err := e.auth.OpenCursor(s)
	var c itemCursor
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return nil, model.Fail(model.CodeInvalidCursor, "The after cursor is not one this service issued; pass the next value of the previous page unchanged.")
	}
	if c.Client != p.ClientID || c.Filter != itemFilterHash(f) {
		return nil, model.Fail(model.CodeInvalidCursor, "The after cursor belongs to other filters; keep the query of the previous page.")
	}
	return &db.ItemKey{CreatedAt: time.UnixMicro(c.CreatedAt).UTC(), ID: c.ID}, nil
}
