// Package sandbox holds the simulated institutions: the connector catalogue seeded at
// start, and (from the items issue on) the behaviour behind each connector.
package sandbox

import (
	"strconv"
	"time"

	"ponte/model"
)

func str(s string) *string { return &s }

// catalogueEpoch is the fixed creation date of the catalogue, so connector timestamps do not
// change every time the service restarts and reseeds.
var catalogueEpoch = model.Time{Time: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)}

// Credential parameters shared by several connectors. Regexes are anchored so a partial
// match never passes.
var (
	cpfParam = model.CredentialParameter{
		Name: "cpf", Label: "CPF", Type: model.CredentialNumber,
		Placeholder: str("000.000.000-00"), AssistiveText: str("Somente números"),
		Validation: str(`^\d{11}$`), ValidationMessage: str("O CPF deve ter 11 dígitos"),
	}
	cnpjParam = model.CredentialParameter{
		Name: "cnpj", Label: "CNPJ", Type: model.CredentialNumber,
		Placeholder: str("00.000.000/0000-00"), AssistiveText: str("Somente números"),
		Validation: str(`^\d{14}$`), ValidationMessage: str("O CNPJ deve ter 14 dígitos"),
	}
	userParam = model.CredentialParameter{
		Name: "user", Label: "Usuário", Type: model.CredentialText,
		Placeholder: str("user-ok"), AssistiveText: str("Use user-ok para uma conexão de sucesso"),
		Validation: str(`^[A-Za-z0-9._@-]{3,64}$`), ValidationMessage: str("O usuário deve ter de 3 a 64 letras, números ou . _ @ -"),
	}
	passwordParam = model.CredentialParameter{
		Name: "password", Label: "Senha", Type: model.CredentialPassword,
		Placeholder: str("password-ok"),
		Validation:  str(`^.{6,64}$`), ValidationMessage: str("A senha deve ter de 6 a 64 caracteres"),
	}
	tokenParam = model.CredentialParameter{
		Name: "token", Label: "Token", Type: model.CredentialNumber, MFA: true,
		Placeholder: str("123456"), AssistiveText: str("Código de 6 dígitos do aplicativo do banco"),
		Validation: str(`^\d{6}$`), ValidationMessage: str("O token deve ter 6 dígitos"),
	}
	eightDigitPassword = model.CredentialParameter{
		Name: "password", Label: "Senha eletrônica", Type: model.CredentialPassword,
		Placeholder: str("8 dígitos"),
		Validation:  str(`^\d{8}$`), ValidationMessage: str("A senha eletrônica deve ter 8 dígitos"),
	}
)

var retailProducts = []model.Product{
	model.ProductAccounts, model.ProductCreditCards, model.ProductTransactions,
	model.ProductIdentity, model.ProductInvestments, model.ProductInvestmentsTransactions, model.ProductLoans,
}

// Connectors is the catalogue seeded into the database. Ids are stable: clients keep them.
// Every connector is simulated by this service; isSandbox marks the ones meant purely for
// testing (id 0 is the one existing client tests use), while the others imitate the shape
// and behaviour of real institutions so they show up in the default listing.
func Connectors() []model.Connector {
	online := model.Health{Status: model.HealthOnline}
	list := []model.Connector{
		{
			ID: 0, Name: "Ponte Bank", InstitutionURL: "https://ponte.example/sandbox",
			PrimaryColor: "ef294b", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{userParam, passwordParam},
			Products:    retailProducts, IsSandbox: true, Health: online,
			ResetPasswordURL: str("https://ponte.example/sandbox/reset-password"),
		},
		{
			ID: 1, Name: "Ponte Bank MFA", InstitutionURL: "https://ponte.example/sandbox-mfa",
			PrimaryColor: "ef294b", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{userParam, passwordParam, tokenParam},
			HasMFA:      true, Products: retailProducts, IsSandbox: true, Health: online,
		},
		{
			ID: 2, Name: "Banco Aurora Empresas", InstitutionURL: "https://aurora.example/empresas",
			PrimaryColor: "0a3d62", Type: model.ConnectorTypeBusinessBank,
			Credentials: []model.CredentialParameter{
				cnpjParam,
				cpfParam,
				eightDigitPassword,
				{
					Name: "profile", Label: "Perfil de acesso", Type: model.CredentialSelect,
					AssistiveText: str("O perfil com que você entra no internet banking"),
					Options: []model.CredentialOption{
						{Value: "master", Label: "Master"},
						{Value: "operator", Label: "Operador"},
						{Value: "viewer", Label: "Consulta"},
					},
				},
			},
			Products: []model.Product{model.ProductAccounts, model.ProductTransactions, model.ProductIdentity,
				model.ProductPaymentData, model.ProductLoans},
			Health:                   online,
			SupportsBoletoManagement: true,
			ResetPasswordURL:         str("https://aurora.example/empresas/recuperar-senha"),
		},
		{
			ID: 3, Name: "Corretora Horizonte Investimentos", InstitutionURL: "https://horizonte.example",
			PrimaryColor: "1b9aaa", Type: model.ConnectorTypeInvestment,
			Credentials: []model.CredentialParameter{
				cpfParam,
				{
					Name: "password", Label: "Senha", Type: model.CredentialPassword,
					Validation: str(`^.{8,32}$`), ValidationMessage: str("A senha deve ter de 8 a 32 caracteres"),
				},
				{
					Name: "token", Label: "Token de segurança", Type: model.CredentialNumber, MFA: true,
					AssistiveText: str("Enviado por SMS ao celular cadastrado"),
					Validation:    str(`^\d{6}$`), ValidationMessage: str("O token deve ter 6 dígitos"),
				},
			},
			HasMFA: true,
			Products: []model.Product{model.ProductInvestments, model.ProductInvestmentsTransactions,
				model.ProductIdentity, model.ProductBrokerageNote, model.ProductMoveSecurity},
			Health: online,
		},
		{
			ID: 4, Name: "Cartões Ipê", InstitutionURL: "https://ipe.example/cartoes",
			PrimaryColor: "f6ae2d", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{cpfParam, {
				Name: "password", Label: "Senha do app", Type: model.CredentialPassword,
				Validation: str(`^\d{6}$`), ValidationMessage: str("A senha do app tem 6 dígitos"),
			}},
			Products: []model.Product{model.ProductCreditCards, model.ProductTransactions, model.ProductIdentity},
			Health:   online,
		},
		{
			ID: 5, Name: "Banco Jacarandá Open Finance", InstitutionURL: "https://jacaranda.example",
			PrimaryColor: "6a4c93", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{cpfParam},
			Products: []model.Product{model.ProductAccounts, model.ProductCreditCards, model.ProductTransactions,
				model.ProductIdentity, model.ProductInvestments, model.ProductInvestmentsTransactions, model.ProductLoans},
			ProductCoverage: []string{
				"ACCOUNTS:CONTA_DEPOSITO_A_VISTA", "ACCOUNTS:CONTA_POUPANCA", "ACCOUNTS:CONTA_PAGAMENTO_PRE_PAGA",
				"CREDIT_CARDS:CREDIT_CARD", "LOANS:EMPRESTIMO_CREDITO_PESSOAL_CONSIGNADO",
				"LOANS:EMPRESTIMO_CREDITO_PESSOAL_SEM_CONSIGNACAO", "INVESTMENTS:BANK_FIXED_INCOMES",
				"INVESTMENTS:TREASURE_TITLES", "INVESTMENTS:FUNDS",
			},
			OAuth: true, OAuthURL: str("https://jacaranda.example/open-finance/authorize"),
			IsOpenFinance: true, Health: online,
			SupportsPaymentInitiation: true, SupportsScheduledPayments: true, SupportsAutomaticPix: true,
		},
		{
			ID: 6, Name: "Ponte Pagamentos Sandbox", InstitutionURL: "https://ponte.example/sandbox-payments",
			PrimaryColor: "2a9d8f", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{cpfParam},
			Products:    []model.Product{model.ProductAccounts, model.ProductTransactions, model.ProductIdentity, model.ProductPaymentData},
			ProductCoverage: []string{"ACCOUNTS:CONTA_DEPOSITO_A_VISTA", "PAYMENTS:PIX", "PAYMENTS:PIX_AGENDADO",
				"PAYMENTS:PIX_AUTOMATICO"},
			OAuth: true, OAuthURL: str("https://ponte.example/sandbox-payments/authorize"),
			IsOpenFinance: true, IsSandbox: true, Health: online,
			SupportsPaymentInitiation: true, SupportsScheduledPayments: true, SupportsSmartTransfers: true,
			SupportsBoletoManagement: true, SupportsAutomaticPix: true,
		},
		{
			ID: 7, Name: "Banco Cerrado", InstitutionURL: "https://cerrado.example",
			PrimaryColor: "8d6e63", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{cpfParam, eightDigitPassword},
			Products:    []model.Product{model.ProductAccounts, model.ProductTransactions},
			Health:      model.Health{Status: model.HealthOffline},
		},
		{
			ID: 8, Name: "Cooperativa Pampa", InstitutionURL: "https://pampa.example",
			PrimaryColor: "43aa8b", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{
				{Name: "agency", Label: "Agência", Type: model.CredentialNumber,
					Validation: str(`^\d{4}$`), ValidationMessage: str("A agência tem 4 dígitos")},
				{Name: "account", Label: "Conta", Type: model.CredentialNumber,
					Validation: str(`^\d{5,12}$`), ValidationMessage: str("A conta tem de 5 a 12 dígitos")},
				eightDigitPassword,
			},
			Products: []model.Product{model.ProductAccounts, model.ProductTransactions, model.ProductLoans},
			Health:   model.Health{Status: model.HealthUnstable, Stage: str("BETA")},
		},
		{
			ID: 9, Name: "Caixa Econômica São João", InstitutionURL: "https://saojoao.example",
			PrimaryColor: "005ca9", Type: model.ConnectorTypePersonalBank,
			Credentials: []model.CredentialParameter{cpfParam, eightDigitPassword},
			Products:    retailProducts, Health: online,
		},
		{
			ID: 10, Name: "Telefonia Brisa", InstitutionURL: "https://brisa.example",
			PrimaryColor: "e63946", Type: model.ConnectorTypeTelecommunication,
			Credentials: []model.CredentialParameter{
				cpfParam,
				{Name: "phone", Label: "Celular", Type: model.CredentialNumber, Optional: true,
					AssistiveText: str("Com DDD"), Validation: str(`^\d{10,11}$`),
					ValidationMessage: str("O celular tem DDD e 8 ou 9 dígitos")},
			},
			Products: []model.Product{model.ProductIdentity, model.ProductPaymentData},
			Health:   online,
		},
		// Connectors 11 and 12 exist so that the sandbox shows the connector types INVOICE and
		// OTHER (docs/sandbox.md, "Every documented value"). 12's access code is a value the
		// institution sets an expiry on: the stored one is past it, so an update must send it
		// again (CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR otherwise).
		{
			ID: 11, Name: "Faturas Sandbox", InstitutionURL: "https://ponte.example/sandbox-invoices",
			PrimaryColor: "3d5a80", Type: model.ConnectorTypeInvoice,
			Credentials: []model.CredentialParameter{cpfParam},
			Products:    []model.Product{model.ProductIdentity, model.ProductPaymentData},
			IsSandbox:   true, Health: online,
		},
		{
			ID: 12, Name: "Cofre Sandbox", InstitutionURL: "https://ponte.example/sandbox-vault",
			PrimaryColor: "5f0f40", Type: model.ConnectorTypeOther,
			Credentials: []model.CredentialParameter{cpfParam, {
				Name: "accessCode", Label: "Código de acesso", Type: model.CredentialText,
				AssistiveText: str("Gerado no aplicativo; vale para uma conexão"),
				Validation:    str(`^[A-Z0-9]{8}$`), ValidationMessage: str("O código de acesso tem 8 letras maiúsculas ou números"),
				ExpiresAt: &catalogueEpoch,
			}},
			Products:  []model.Product{model.ProductIdentity},
			IsSandbox: true, Health: online,
		},
		// The Central Bank's SCR: the credential is the holder's document, and the holder's
		// consent is given on the authorization page, as on the Open Finance connectors.
		{
			ID: SCRConnectorID, Name: "SCR Banco Central (sandbox)", InstitutionURL: "https://ponte.example/sandbox-scr",
			PrimaryColor: "1d3557", Type: model.ConnectorTypeOther,
			Credentials: []model.CredentialParameter{{
				Name: "document", Label: "CPF ou CNPJ", Type: model.CredentialNumber,
				AssistiveText: str("Somente números"), Validation: str(`^(\d{11}|\d{14})$`),
				ValidationMessage: str("O documento é um CPF (11 dígitos) ou um CNPJ (14 dígitos)"),
			}},
			Products: []model.Product{model.ProductCreditInfo},
			OAuth:    true, OAuthURL: str("https://ponte.example/sandbox-scr/consent"),
			IsSandbox: true, Health: online,
		},
	}
	for i := range list {
		c := &list[i]
		c.Country, c.Provider = "BR", Provider
		c.ImageURL = "https://ponte.example" + LogoPath(c.ID)
		c.CreatedAt, c.UpdatedAt = catalogueEpoch, catalogueEpoch
	}
	return list
}

// LogoPath is where the service serves a connector's logo (among the Connect page's assets).
func LogoPath(id int) string { return "/connect/assets/logo-" + strconv.Itoa(id) + ".svg" }

// ServedAt is the catalogue with each imageUrl pointing at the logo the service reached at
// base (its public URL) serves.
func ServedAt(base string) []model.Connector {
	list := Connectors()
	for i := range list {
		list[i].ImageURL = base + LogoPath(list[i].ID)
	}
	return list
}
