package auth

import (
	"context"
	"crypto/rsa"

	"github.com/google/uuid"
)

// ClientKey returns the RSA key pair clients use to encrypt item parameters, made on first
// use and kept sealed under the master key.
func (s *Service) ClientKey(ctx context.Context, clientID uuid.UUID) (*rsa.PrivateKey, error) {
	sealed, err := s.db.ClientRSAKey(ctx, clientID)
	if err != nil {
		return nil, err
	}
	if sealed == nil {
		k, err := GenerateRSAKey()
		if err != nil {
			return nil, err
		}
		// Two first uses racing: the first stored key wins and both read it back.
		if err := s.db.SetClientRSAKey(ctx, clientID, s.keySealer.Seal(MarshalPrivateKey(k), clientID[:])); err != nil {
			return nil, err
		}
		if sealed, err = s.db.ClientRSAKey(ctx, clientID); err != nil {
			return nil, err
		}
	}
	der, err := s.keySealer.Open(sealed, clientID[:])
	if err != nil {
		return nil, err
	}
	return ParsePrivateKey(der)
}

// ClientPublicKeyPEM is what `ponte clients public-key ID` prints.
func (s *Service) ClientPublicKeyPEM(ctx context.Context, clientID uuid.UUID) (string, error) {
	k, err := s.ClientKey(ctx, clientID)
	if err != nil {
		return "", err
	}
	return PublicKeyPEM(&k.PublicKey), nil
}
