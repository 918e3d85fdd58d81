package itemsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// The credentials an item is created or updated with: decoded, split into the user's
// identity and one-time MFA values, and looked up on the connector.

// parameters turns the body's parameters into strings, decrypting them when they arrive
// as a ciphertext.
func (e *Engine) parameters(ctx context.Context, clientID uuid.UUID, raw any) (map[string]string, map[string]any, error) {
	var obj map[string]any
	switch v := raw.(type) {
	case nil:
		return nil, nil, nil
	case map[string]any:
		obj = v
	case string:
		key, err := e.clientKey(ctx, clientID)
		if err != nil {
			return nil, nil, err
		}
		obj, err = auth.DecryptParameters(key, v)
		if err != nil {
			var ce *auth.CredentialError
			if errors.As(err, &ce) {
				return nil, nil, model.Fail(model.CodeInvalidParameter, "%s", ce.Msg)
			}
			return nil, nil, err
		}
	default:
		return nil, nil, model.Fail(model.CodeInvalidParameter, "parameters must be an object of credentials, or a Base64 string of them encrypted with RSA-OAEP.")
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		s, ok := credentialString(v)
		if !ok {
			return nil, nil, model.Fail(model.CodeConnectorValidation, "Parameter %s must be a string.", k).
				WithDetails([]model.ValidationError{{Code: validationInvalid, Parameter: k, Message: k + " must be a string."}})
		}
		out[k] = s
	}
	return out, obj, nil
}

// nonMFA lists the connector's credential names that identify the user, in order.
func nonMFA(c *model.Connector) []string {
	var names []string
	for _, cr := range c.Credentials {
		if !cr.MFA {
			names = append(names, cr.Name)
		}
	}
	return names
}

func asAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mfaHash(itemID uuid.UUID, value string) string {
	h := sha256.Sum256(append(itemID[:], value...))
	return hex.EncodeToString(h[:])
}

// withoutMFA drops MFA values: they are valid for one execution only.
func withoutMFA(c *model.Connector, params map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range params {
		if cr := credential(c, k); cr != nil && cr.MFA {
			continue
		}
		out[k] = v
	}
	return out
}

// mfaValue is an MFA value sent up front with the credentials, if any.
func mfaValue(c *model.Connector, params map[string]string) map[string]string {
	out := map[string]string{}
	for _, cr := range c.Credentials {
		if v, ok := params[cr.Name]; ok && cr.MFA && v != "" {
			out[cr.Name] = v
		}
	}
	return out
}

func credential(c *model.Connector, name string) *model.CredentialParameter {
	for i := range c.Credentials {
		if c.Credentials[i].Name == name {
			return &c.Credentials[i]
		}
	}
	return nil
}

// mfaSentForUpdate keeps items rule 4: a connector whose credentials include a one-time
// code cannot update on stored credentials alone, so an update without the code is
// refused at once rather than left waiting for input until it times out. The value's
// format is checked with the other credentials; its freshness against the last execution.
func mfaSentForUpdate(c *model.Connector, params map[string]string) error {
	for _, cr := range c.Credentials {
		if cr.MFA && params[cr.Name] == "" {
			msg := fmt.Sprintf("%s is a one-time code: send a new value with each update of this item.", cr.Label)
			return model.Fail(model.CodeConnectorRequiredParameter, "Parameter %s must be sent with this update: %s", cr.Name, msg).
				WithDetails([]model.ValidationError{{Code: validationMissing, Parameter: cr.Name, Message: msg}})
		}
	}
	return nil
}
