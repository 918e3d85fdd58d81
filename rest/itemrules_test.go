package rest_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

var okParams = map[string]any{"user": "user-ok", "password": "password-ok"}

// TestItemRuleCodes provokes each codeDescription of section 7.3 raised by item rules.
func TestItemRuleCodes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.LoginFailureLimit = 2 })
	c := env.NewClient(t, "rules")
	key := c.APIKey

	t.Run("CONNECTOR_VALIDATION_ERROR with details", func(t *testing.T) {
		m := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "x"}}).WantError(400, "CONNECTOR_VALIDATION_ERROR")
		details, _ := m["details"].([]any)
		if len(details) != 2 {
			t.Fatalf("details %v", m["details"])
		}
		d := details[0].(map[string]any)
		if d["code"] == "" || d["parameter"] != "user" || d["message"] == "" {
			t.Fatalf("detail %v", d)
		}
	})
	t.Run("CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR", func(t *testing.T) {
		// Items rule 4: an update of a connector with a one-time code must bring a new one.
		it := createItem(t, env, key, 1, map[string]any{"user": "user-ok", "password": "password-ok", "token": "123456"})
		id := it.ID.String()
		env.WaitItem(t, key, id, func(i *model.Item) bool { return i.Status == model.ItemUpdated })
		for _, body := range []map[string]any{{}, {"parameters": map[string]any{}}, {"webhookUrl": "https://hooks.example.com/x"}} {
			m := env.Do(t, "PATCH", "/items/"+id, key, body).WantError(400, "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR")
			if d, _ := m["details"].([]any); len(d) != 1 || d[0].(map[string]any)["parameter"] != "token" {
				t.Fatalf("details of %v: %v", body, m)
			}
		}
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"token": "123456"}}).WantError(400, "MFA_PARAMERTER_WAS_ALREADY_USED_ERROR")
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"token": "222222"}}).Want(200)
		env.WaitItem(t, key, id, func(i *model.Item) bool {
			return i.Status == model.ItemUpdated && i.ExecutionStatus == model.ExecSuccess
		})
	})
	t.Run("PARAMETERS_NOT_PROVIDED", func(t *testing.T) {
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0}).WantError(400, "PARAMETERS_NOT_PROVIDED")
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{}}).WantError(400, "PARAMETERS_NOT_PROVIDED")
	})
	t.Run("CONNECTOR_NOT_FOUND", func(t *testing.T) {
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 999, "parameters": okParams}).WantError(404, "CONNECTOR_NOT_FOUND")
	})
	t.Run("CONNECTOR_OFFLINE", func(t *testing.T) {
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 7, "parameters": map[string]any{"cpf": "52998224725", "password": "12345678"}}).WantError(409, "CONNECTOR_OFFLINE")
	})
	t.Run("bad products", func(t *testing.T) {
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 10, "parameters": map[string]any{"cpf": "52998224725"}, "products": []string{"INVESTMENTS"}}).WantError(400, "INVALID_PARAMETER")
	})

	// Duplicates: same credentials while one is running, then avoidDuplicates.
	first := createItem(t, env, key, 0, map[string]any{"user": "user-ok-select", "password": "password-ok"})
	env.WaitItem(t, key, first.ID.String(), testsupport.Settled) // waits for MFA: still executing
	t.Run("ITEM_IS_ALREADY_UPDATING", func(t *testing.T) {
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok-select", "password": "password-ok"}}).WantError(400, "ITEM_IS_ALREADY_UPDATING")
	})
	t.Run("ITEM_ALREADY_UPDATING", func(t *testing.T) {
		env.Do(t, "PATCH", "/items/"+first.ID.String(), key, map[string]any{}).WantError(400, "ITEM_ALREADY_UPDATING")
	})
	t.Run("ITEM_MFA_ALREADY_PROVIDED and MFA_PARAMERTER_WAS_ALREADY_USED_ERROR", func(t *testing.T) {
		id := first.ID.String()
		env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{"device": "123456"}).Want(200)
		env.WaitItem(t, key, id, func(it *model.Item) bool { return it.Status == model.ItemUpdated })
		// The next update asks again; the value of the last execution is refused.
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
		env.WaitItem(t, key, id, testsupport.Settled)
		env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{"device": "123456"}).WantError(400, "MFA_PARAMERTER_WAS_ALREADY_USED_ERROR")
		env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{"device": "654321"}).Want(200)
	})
	t.Run("ITEM_MFA_ALREADY_PROVIDED", func(t *testing.T) {
		// Paced steps keep the execution on its MFA answer long enough to answer twice.
		slow := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.StepDelay = 500 * time.Millisecond })
		key := slow.NewClient(t, "slow").APIKey
		it := createItem(t, slow, key, 1, okParams)
		slow.WaitItem(t, key, it.ID.String(), func(i *model.Item) bool { return i.Status == model.ItemWaitingUserInput })
		slow.Do(t, "POST", "/items/"+it.ID.String()+"/mfa", key, map[string]any{"token": "123456"}).Want(200)
		slow.Do(t, "POST", "/items/"+it.ID.String()+"/mfa", key, map[string]any{"token": "123456"}).WantError(400, "ITEM_MFA_ALREADY_PROVIDED")
	})

	ok := createItem(t, env, key, 0, okParams)
	env.WaitItem(t, key, ok.ID.String(), testsupport.Settled)
	t.Run("ITEM_USER_ALREADY_EXISTS", func(t *testing.T) {
		m := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams, "avoidDuplicates": true}).WantError(400, "ITEM_USER_ALREADY_EXISTS")
		items := m["data"].(map[string]any)["items"].([]any)
		if len(items) != 1 || items[0] != ok.ID.String() {
			t.Fatalf("data.items %v", items)
		}
	})
	t.Run("ITEM_ORIGINAL_CONNECTED_WITH_DIFFERENT_ACCOUNT", func(t *testing.T) {
		env.Do(t, "PATCH", "/items/"+ok.ID.String(), key, map[string]any{"parameters": map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok"}}).WantError(409, "ITEM_ORIGINAL_CONNECTED_WITH_DIFFERENT_ACCOUNT")
	})
	t.Run("CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR", func(t *testing.T) {
		// The stored user no longer passes a (tightened) rule: it must be sent again.
		env.Exec(t, `UPDATE connectors SET credentials = jsonb_set(credentials, '{0,validation}', '"^user-ok-.+$"') WHERE id = 0`)
		defer env.Exec(t, `UPDATE connectors SET credentials = jsonb_set(credentials, '{0,validation}', '"^[A-Za-z0-9._@-]{3,64}$"') WHERE id = 0`)
		env.Do(t, "PATCH", "/items/"+ok.ID.String(), key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).WantError(400, "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR")
	})

	t.Run("login failures", func(t *testing.T) {
		bad := createItem(t, env, key, 0, map[string]any{"user": "user-locked", "password": "password-ok"})
		id := bad.ID.String()
		env.WaitItem(t, key, id, testsupport.Settled)
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).WantError(400, "LAST_EXECUTION_HAD_LOGIN_ERROR")
		env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).Want(200)
		it, _ := env.WaitItem(t, key, id, testsupport.Settled)
		// New parameters do not reset the count (only a successful login does): two in a row.
		if it.ConsecutiveFailedLoginAttempts != 2 {
			t.Fatalf("consecutiveFailedLoginAttempts %d after new parameters, want 2", it.ConsecutiveFailedLoginAttempts)
		}
		env.Exec(t, `UPDATE items SET consecutive_failed_login_attempts = 2, last_login_failure_at = now() WHERE id = $1`, id)
		m := env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).WantError(400, "TOO_MANY_CONSECUTIVE_LOGIN_FAILURES")
		msg := m["message"].(string)
		for _, want := range []string{"2 failed attempts", "Last attempt at", "retry after"} {
			if !strings.Contains(msg, want) {
				t.Fatalf("message %q lacks %q", msg, want)
			}
		}
	})
	t.Run("TOO_MANY_CONSECUTIVE_ERRORS", func(t *testing.T) {
		e := createItem(t, env, key, 0, map[string]any{"user": "user-unavailable", "password": "password-ok"})
		env.WaitItem(t, key, e.ID.String(), testsupport.Settled)
		env.Exec(t, `UPDATE items SET consecutive_errors = 6 WHERE id = $1`, e.ID)
		env.Do(t, "PATCH", "/items/"+e.ID.String(), key, map[string]any{}).WantError(400, "TOO_MANY_CONSECUTIVE_ERRORS")
	})
	t.Run("ITEM_IN_ERROR_COOLDOWN", func(t *testing.T) {
		p := map[string]any{"user": "user-error", "password": "password-ok"}
		e := createItem(t, env, key, 0, p)
		env.WaitItem(t, key, e.ID.String(), testsupport.Settled)
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": p}).WantError(409, "ITEM_IN_ERROR_COOLDOWN")
	})
}

func TestItemClientSettings(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "settings")
	key := c.APIKey
	it := createItem(t, env, key, 0, okParams)
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	id := it.ID.String()

	cases := []struct {
		name, set string
		method    string
		status    int
		code      string
	}{
		{"CLIENT_HAS_ITEM_UPDATES_DISABLED", "item_updates_enabled = false", "PATCH", 409, "CLIENT_HAS_ITEM_UPDATES_DISABLED"},
		{"SANDBOX_CLIENT_ITEM_UPDATE_NOT_ALLOWED", "sandbox_updates_only = true", "PATCH-real", 400, "SANDBOX_CLIENT_ITEM_UPDATE_NOT_ALLOWED"},
		{"CREATE_ITEMS_API_FREE_DISABLED", "api_item_creation_enabled = false", "POST", 400, "CREATE_ITEMS_API_FREE_DISABLED"},
		{"ITEM_CREATION_LIMIT_EXCEEDED", "item_limit = 2", "POST", 409, "ITEM_CREATION_LIMIT_EXCEEDED"},
		{"CLIENT_IS_UPDATING_BEFORE_ALLOWED_FREQUENCY", "min_update_interval_hours = 6", "PATCH-twice", 409, "CLIENT_IS_UPDATING_BEFORE_ALLOWED_FREQUENCY"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env.Exec(t, `UPDATE client_applications SET `+tc.set+` WHERE id = $1`, c.ID)
			defer env.Exec(t, `UPDATE client_applications SET item_updates_enabled = true, sandbox_updates_only = false,
				api_item_creation_enabled = true, item_limit = NULL, min_update_interval_hours = 0 WHERE id = $1`, c.ID)
			switch tc.method {
			case "PATCH":
				env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).WantError(tc.status, tc.code)
			case "PATCH-real":
				real := createItem(t, env, key, 10, map[string]any{"cpf": "52998224725"})
				env.WaitItem(t, key, real.ID.String(), testsupport.Settled)
				env.Do(t, "PATCH", "/items/"+real.ID.String(), key, map[string]any{}).WantError(tc.status, tc.code)
			case "POST":
				env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok-phone", "password": "password-ok"}}).WantError(tc.status, tc.code)
			case "PATCH-twice":
				env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
				env.WaitItem(t, key, id, testsupport.Settled)
				m := env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).WantError(tc.status, tc.code)
				if !strings.Contains(m["message"].(string), "every 6 hours") || !strings.Contains(m["message"].(string), "The last update was at") {
					t.Fatalf("message %v", m["message"])
				}
			}
		})
	}
}

// TestEncryptedParameters sends parameters encrypted with the application's public key, as
// rule 2 of 4.3 describes, from Node like a client would, and from Go.
func TestEncryptedParameters(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "encrypted")
	key := c.APIKey
	pemText, err := env.Auth.ClientPublicKeyPEM(t.Context(), mustUUID(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := json.Marshal(okParams)
	block, _ := pem.Decode([]byte(pemText))
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, pub.(*rsa.PublicKey), plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": base64.StdEncoding.EncodeToString(ct)}).Want(200).JSON(&it)
	final, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	if final.ExecutionStatus != model.ExecSuccess {
		t.Fatalf("encrypted item ended %s", final.ExecutionStatus)
	}

	node := exec.Command("node", "-e", `const c=require('crypto');process.stdout.write(c.publicEncrypt({key:process.env.PEM,padding:c.constants.RSA_PKCS1_OAEP_PADDING},Buffer.from(process.env.PLAIN)).toString('base64'))`)
	node.Env = append(os.Environ(), "PEM="+pemText, "PLAIN="+string(plain))
	out, err := node.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": string(out), "clientUserId": "node"}).Want(200)

	for _, bad := range []string{"%%%not-base64", base64.StdEncoding.EncodeToString([]byte("short")), base64.StdEncoding.EncodeToString(make([]byte, 256))} {
		m := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": bad}).WantError(400, "INVALID_PARAMETER")
		if !strings.Contains(m["message"].(string), "parameters") {
			t.Fatalf("message %v", m["message"])
		}
	}
}
