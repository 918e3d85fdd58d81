package auth

// AnswerSealer seals the first answers kept for Idempotency-Key replays: they can carry
// credentials (a Connect Token, a rotated signing secret, a webhook's custom headers), which
// must not sit in the database in clear. Its key is derived, for this purpose only, from the
// token key, itself derived from the master key.
func (s *Service) AnswerSealer() *Sealer { return NewSealerFor(s.jwtKey, "idempotency-answers") }
