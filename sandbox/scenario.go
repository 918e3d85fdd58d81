package sandbox

import (
	"strings"

	"ponte/model"
)

// Sandbox credentials, as on the hosted sandbox.
const (
	GoodPassword = "password-ok"
	GoodMFA      = "123456"
	// WrongMFA is the one code the sandbox always refuses. Any other six digits are right:
	// an update must bring a code its last execution did not use, as a bank's token
	// changes, so one fixed right code would make every second update fail.
	WrongMFA = "111111"
)

// rightMFA says whether the sandbox takes an MFA value.
func rightMFA(v string) bool {
	if len(v) != 6 || v == WrongMFA {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Scenario is how a simulated institution answers one set of credentials.
type Scenario struct {
	// Username keys the generated data (it sets the history size for user-ok-perf-N).
	Username string
	// LoginError ends the execution at login.
	LoginError *model.ExecutionError
	// MFA is the parameter asked after login, nil when none.
	MFA *model.CredentialParameter
	// Action is a step the user takes outside the form (QR code, app authorisation).
	Action *model.UserAction
	// ActionTimeoutError is the outcome when the action is never taken.
	ActionTimeoutError model.ExecutionStatus
	// CollectError ends the execution after login, while collecting.
	CollectError *model.ExecutionError
	// FailedProducts are not collected (PARTIAL_SUCCESS); WarnProducts carry a warning.
	FailedProducts []model.Product
	WarnProducts   []model.Product
}

func execErr(code model.ExecutionStatus, msg string) *model.ExecutionError {
	return &model.ExecutionError{Code: code, Message: msg}
}

// Choose picks the scenario for credentials given to connector c.
func Choose(c *model.Connector, params map[string]string) *Scenario {
	user, hasUser := params["user"]
	s := &Scenario{Username: user}
	if !hasUser {
		// Connectors that log in with documents and numeric passwords accept any input
		// their validation allows; the data is keyed by the first credential.
		if len(c.Credentials) > 0 {
			s.Username = "user-ok:" + params[c.Credentials[0].Name]
		}
	} else if params["password"] != GoodPassword && !strings.HasPrefix(user, "user-ok-perf-") {
		s.LoginError = execErr(model.ExecInvalidCredentials, "Invalid credentials: check the user and password.")
		return s
	}
	switch {
	case !hasUser:
	case user == "user-ok", strings.HasPrefix(user, "user-ok-perf-"), user == "user-ok-two-checking-accounts", user == EveryValueUser:
	case user == "user-logged":
		s.LoginError = execErr(model.ExecAlreadyLoggedIn, "The user is already logged in at the institution; log out there and try again.")
	case user == "user-locked":
		s.LoginError = execErr(model.ExecAccountLocked, "The account is locked at the institution.")
	case user == "user-error":
		s.LoginError = execErr(model.ExecUnexpectedError, "An unexpected error happened while connecting to the institution.")
	case user == "user-unavailable":
		s.LoginError = execErr(model.ExecSiteNotAvailable, "The institution's site is not available at the moment.")
	case user == "user-account-need-actions":
		s.LoginError = execErr(model.ExecAccountNeedsAction, "The account needs an action from its owner at the institution.")
	case user == "user-account-need-actions-provider-message":
		s.LoginError = execErr(model.ExecAccountNeedsAction, "The account needs an action from its owner at the institution.")
		pm := "Por favor, atualize seus dados cadastrais no aplicativo do banco."
		s.LoginError.ProviderMessage = &pm
	case user == "user-connection-error":
		s.CollectError = execErr(model.ExecConnectionError, "The connection with the institution was lost while collecting data.")
	case user == "user-account-credentials-reset":
		s.LoginError = execErr(model.ExecAccountCredentialsReset, "The institution asks the user to reset their credentials.")
	case user == "user-not-supported":
		s.LoginError = execErr(model.ExecUserNotSupported, "This kind of account is not supported by the connector.")
	case user == "user-ok-account-error":
		s.FailedProducts = []model.Product{model.ProductCreditCards}
	case user == "user-ok-account-warning":
		s.WarnProducts = []model.Product{model.ProductAccounts}
	case user == "user-ok-auth-pending":
		s.Action = &model.UserAction{Type: "authorize-access",
			Instructions: "Abra o aplicativo do banco e autorize o novo acesso."}
		s.ActionTimeoutError = model.ExecUserAuthPending
	case user == "user-ok-qr":
		s.Action = &model.UserAction{Type: "qr",
			Instructions: "Escaneie o QR code com o aplicativo do banco para entrar."}
		s.ActionTimeoutError = model.ExecUserInputTimeout
	case user == "user-ok-img":
		s.MFA = &model.CredentialParameter{Name: "captcha", Label: "Digite o código da imagem", Type: model.CredentialImage,
			Data: str(captchaImage), Validation: str(`^\d{6}$`), ValidationMessage: str("O código tem 6 dígitos"), MFA: true}
	case user == "user-ok-select":
		s.MFA = &model.CredentialParameter{Name: "device", Label: "Onde receber o código?", Type: model.CredentialSelect, MFA: true,
			Options: []model.CredentialOption{{Value: GoodMFA, Label: "SMS para (11) ****-1234"}, {Value: "654321", Label: "E-mail j***@example.com"}}}
	case user == "user-ok-phone":
		s.MFA = &model.CredentialParameter{Name: "phone", Label: "Código enviado por SMS", Type: model.CredentialNumber, MFA: true,
			AssistiveText: str("Enviado para (11) *****-1234"), Validation: str(`^\d{6}$`), ValidationMessage: str("O código tem 6 dígitos")}
	default:
		s.LoginError = execErr(model.ExecInvalidCredentials, "Invalid credentials: check the user and password.")
		return s
	}
	if c.ID == SCRConnectorID && params["document"] == SCRUnavailableCPF {
		s.CollectError = execErr(model.ExecSiteNotAvailable, "The Central Bank's SCR is not answering at the moment.")
	}
	if s.LoginError == nil && s.MFA == nil && s.Action == nil {
		if c.OAuth {
			s.Action = &model.UserAction{Type: "authorize-access",
				Instructions: "Autorize o compartilhamento de dados na página da instituição."}
			s.ActionTimeoutError = model.ExecUserAuthNotGranted
		} else if c.HasMFA {
			for _, cred := range c.Credentials {
				if cred.MFA {
					p := cred
					s.MFA = &p
					break
				}
			}
		}
	}
	return s
}

// captchaImage is a tiny PNG standing in for an institution's captcha.
const captchaImage = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
