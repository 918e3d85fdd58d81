package auth

import (
	"context"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"

	"ponte/model"
)

// liveOriginsKept bounds the origins whose answer is remembered (about 100 bytes each): a
// flood of random origins evicts the oldest, never grows the process.
const liveOriginsKept = 4096

// liveOriginsTTL is how long a remembered answer is used when nothing says it changed: a
// token naming the origin, issued here or announced by another process (Listen), drops it
// at once; an announcement lost while the listening session was down, at most this late.
const liveOriginsTTL = 5 * time.Second

func newLiveOrigins(ttl time.Duration) *expirable.LRU[string, bool] {
	return expirable.NewLRU[string, bool](liveOriginsKept, nil, ttl)
}

// OriginLive reports whether a Connect Token not yet expired names origin as its
// targetOrigin (a CORS preflight from it is then answered). The store's answer is kept a
// few seconds, so a flood of preflights costs one query per origin per few seconds.
func (s *Service) OriginLive(ctx context.Context, origin string) (bool, error) {
	if live, ok := s.origins.Get(origin); ok {
		return live, nil
	}
	live, err := s.db.BrowserOriginLive(ctx, origin)
	if err != nil {
		return false, err
	}
	s.origins.Add(origin, live)
	return live, nil
}

// RememberOrigins sets how long OriginLive keeps an answer, forgetting what it kept; a
// test makes it long to show that an issue, not the time passing, drops a "no".
func (s *Service) RememberOrigins(ttl time.Duration) { s.origins = newLiveOrigins(ttl) }

// forgetOrigin drops what OriginLive remembers of a token's targetOrigin once one naming
// it was issued, so its page's first preflight does not wait out a remembered "no".
func (s *Service) forgetOrigin(targetOrigin *string) {
	if targetOrigin == nil {
		return
	}
	if o, ok := model.Origin(*targetOrigin); ok {
		s.origins.Remove(o)
	}
}
