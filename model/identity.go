package model

import "github.com/google/uuid"

// Phone is one of an identity's phone numbers (official client's PhoneNumber).
type Phone struct {
	Type               *string `json:"type"` // Personal, Work, Residencial
	Value              string  `json:"value"`
	CountryCallingCode *string `json:"countryCallingCode,omitempty"`
	AreaCode           *string `json:"areaCode,omitempty"`
	Extension          *string `json:"extension,omitempty"`
	AdditionalInfo     *string `json:"additionalInfo,omitempty"`
}

// Email is one of an identity's e-mail addresses (official client's names).
type Email struct {
	Type  *string `json:"type"` // Personal or Work
	Value string  `json:"value"`
}

// GeographicCoordinates locate an address (official client's names).
type GeographicCoordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// Address is one of an identity's addresses (official client's names).
type Address struct {
	FullAddress           *string                `json:"fullAddress"`
	PrimaryAddress        *string                `json:"primaryAddress"`
	City                  *string                `json:"city"`
	PostalCode            *string                `json:"postalCode"`
	State                 *string                `json:"state"`
	Country               *string                `json:"country"`
	Type                  *string                `json:"type"`
	AdditionalInfo        *string                `json:"additionalInfo"`
	District              *string                `json:"district,omitempty"`
	IBGETownCode          *string                `json:"ibgeTownCode,omitempty"`
	CountryCode           *string                `json:"countryCode,omitempty"`
	GeographicCoordinates *GeographicCoordinates `json:"geographicCoordinates,omitempty"`
}

// Relation is a personal relationship of an identity (official client's IdentityRelation).
type Relation struct {
	Type     *string `json:"type"` // Mother, Father, Spouse
	Name     *string `json:"name"`
	Document *string `json:"document"`
}

// MaritalStatus of a natural person (official client's names).
type MaritalStatus struct {
	Code           string  `json:"code"`
	AdditionalInfo *string `json:"additionalInfo,omitempty"`
}

// NationalityDocument supports one of a person's other nationalities.
type NationalityDocument struct {
	Type           string  `json:"type"`
	Number         string  `json:"number"`
	Country        *string `json:"country,omitempty"`
	IssueDate      *Time   `json:"issueDate,omitempty"`
	ExpirationDate *Time   `json:"expirationDate,omitempty"`
	AdditionalInfo *string `json:"additionalInfo,omitempty"`
}

// OtherNationality is a nationality besides the Brazilian one.
type OtherNationality struct {
	CountryCode string                `json:"countryCode"`
	Documents   []NationalityDocument `json:"documents"`
}

// Nationality of a natural person (official client's names).
type Nationality struct {
	HasBrazilianNationality bool               `json:"hasBrazilianNationality"`
	OtherNationalities      []OtherNationality `json:"otherNationalities,omitempty"`
}

// IdentityDocument is another identification document of a person (official client's
// OtherDocument: CNH, RG, NIF, RNE or OTHER).
type IdentityDocument struct {
	Type               string  `json:"type"`
	TypeAdditionalInfo *string `json:"typeAdditionalInfo,omitempty"`
	Number             string  `json:"number"`
	CheckDigit         *string `json:"checkDigit,omitempty"`
	AdditionalInfo     *string `json:"additionalInfo,omitempty"`
	ExpirationDate     *Time   `json:"expirationDate,omitempty"`
}

// Passport of a non-resident person (official client's names).
type Passport struct {
	Number         string `json:"number"`
	Country        string `json:"country"`
	IssueDate      *Time  `json:"issueDate,omitempty"`
	ExpirationDate *Time  `json:"expirationDate,omitempty"`
}

// BusinessParty is a partner or administrator of a business (official client's names).
type BusinessParty struct {
	Type                   string   `json:"type"`       // PARTNER or ADMINISTRATOR
	PersonType             string   `json:"personType"` // NATURAL_PERSON or LEGAL_ENTITY
	DocumentType           string   `json:"documentType"`
	DocumentNumber         string   `json:"documentNumber"`
	DocumentCountry        *string  `json:"documentCountry,omitempty"`
	DocumentExpirationDate *Time    `json:"documentExpirationDate,omitempty"`
	DocumentIssueDate      *Time    `json:"documentIssueDate,omitempty"`
	DocumentAdditionalInfo *string  `json:"documentAdditionalInfo,omitempty"`
	CivilName              *string  `json:"civilName,omitempty"`
	SocialName             *string  `json:"socialName,omitempty"`
	CompanyName            *string  `json:"companyName,omitempty"`
	TradeName              *string  `json:"tradeName,omitempty"`
	StartDate              *Time    `json:"startDate,omitempty"`
	Shareholding           *float64 `json:"shareholding,omitempty"`
}

// BusinessOtherDocument identifies a business headquartered abroad.
type BusinessOtherDocument struct {
	Type           string `json:"type"`
	Number         string `json:"number"`
	Country        string `json:"country"`
	ExpirationDate *Time  `json:"expirationDate,omitempty"`
}

// FinancialRelationshipAccount is an account the person holds at the institution.
type FinancialRelationshipAccount struct {
	CompeCode  string `json:"compeCode"`
	BranchCode string `json:"branchCode"`
	Number     string `json:"number"`
	CheckDigit string `json:"checkDigit"`
	Type       string `json:"type"`    // CONTA_DEPOSITO_A_VISTA, CONTA_POUPANCA, CONTA_PAGAMENTO_PRE_PAGA
	Subtype    string `json:"subtype"` // INDIVIDUAL, CONJUNTA_SIMPLES, CONJUNTA_SOLIDARIA
}

// Procurator represents the customer at the institution.
type Procurator struct {
	Type           string  `json:"type"` // REPRESENTANTE_LEGAL or PROCURADOR
	CPFNumber      string  `json:"cpfNumber"`
	DocumentNumber *string `json:"documentNumber,omitempty"`
	DocumentType   *string `json:"documentType,omitempty"`
	CivilName      string  `json:"civilName"`
	SocialName     *string `json:"socialName,omitempty"`
}

// PortabilityReceived is a salary portability received by the institution.
type PortabilityReceived struct {
	EmployerName             string `json:"employerName"`
	EmployerDocument         string `json:"employerDocument"`
	PaycheckBankDetainerCNPJ string `json:"paycheckBankDetainerCnpj"`
	PaycheckBankDetainerISPB string `json:"paycheckBankDetainerIspb"`
	PortabilityApprovalDate  Time   `json:"portabilityApprovalDate"`
}

// PaycheckBankLink links the person's paycheck account to an employer.
type PaycheckBankLink struct {
	EmployerName       string `json:"employerName"`
	EmployerDocument   string `json:"employerDocument"`
	PaycheckBankCNPJ   string `json:"paycheckBankCnpj"`
	PaycheckBankISPB   string `json:"paycheckBankIspb"`
	AccountOpeningDate Time   `json:"accountOpeningDate"`
}

// FinancialRelationships is the customer's relationship with the institution (official
// client's names).
type FinancialRelationships struct {
	StartDate                          Time                           `json:"startDate"`
	ProductsServicesType               []string                       `json:"productsServicesType"`
	ProductsServicesTypeAdditionalInfo *string                        `json:"productsServicesTypeAdditionalInfo,omitempty"`
	Procurators                        []Procurator                   `json:"procurators"`
	Accounts                           []FinancialRelationshipAccount `json:"accounts,omitempty"`
	PortabilitiesReceived              []PortabilityReceived          `json:"portabilitiesReceived,omitempty"`
	PaychecksBankLink                  []PaycheckBankLink             `json:"paychecksBankLink,omitempty"`
}

// InformedIncome is the income a person declared.
type InformedIncome struct {
	Frequency string  `json:"frequency"` // DIARIA, SEMANAL, ..., MENSAL, ..., OUTROS
	Amount    float64 `json:"amount"`
	Date      Time    `json:"date"`
}

// InformedPatrimony is the patrimony a customer declared.
type InformedPatrimony struct {
	Amount float64 `json:"amount"`
	Year   int     `json:"year"`
	Date   *Time   `json:"date,omitempty"`
}

// InformedRevenue is the revenue a business declared.
type InformedRevenue struct {
	Amount                  float64 `json:"amount"`
	Frequency               *string `json:"frequency,omitempty"`
	FrequencyAdditionalInfo *string `json:"frequencyAdditionalInfo,omitempty"`
	Year                    *int    `json:"year,omitempty"`
}

// EconomicActivity is a CNAE code of a business.
type EconomicActivity struct {
	Code   string `json:"code"`
	IsMain bool   `json:"isMain"`
}

// Qualifications are the customer's declared occupation and finances (official client's
// names).
type Qualifications struct {
	CompanyCNPJ           string             `json:"companyCnpj"`
	OccupationCode        *string            `json:"occupationCode,omitempty"` // RECEITA_FEDERAL, CBO, OUTRO
	OccupationDescription *string            `json:"occupationDescription,omitempty"`
	InformedIncome        *InformedIncome    `json:"informedIncome,omitempty"`
	InformedPatrimony     *InformedPatrimony `json:"informedPatrimony,omitempty"`
	EconomicActivities    []EconomicActivity `json:"economicActivities,omitempty"`
	InformedRevenue       *InformedRevenue   `json:"informedRevenue,omitempty"`
}

// Identity is the account holder's identity, in the official client's field names
// (IdentityResponse). PF-only and PJ-only fields are null when they do not apply.
type Identity struct {
	Stored
	ID                     uuid.UUID               `json:"id"`
	ItemID                 uuid.UUID               `json:"itemId"`
	BirthDate              *Time                   `json:"birthDate"`
	TaxNumber              *string                 `json:"taxNumber"`
	Document               *string                 `json:"document"`
	DocumentType           *string                 `json:"documentType"`
	JobTitle               *string                 `json:"jobTitle"`
	CompanyName            *string                 `json:"companyName"`
	FullName               *string                 `json:"fullName"`
	PhoneNumbers           []Phone                 `json:"phoneNumbers"`
	Emails                 []Email                 `json:"emails"`
	Addresses              []Address               `json:"addresses"`
	Relations              []Relation              `json:"relations"`
	InvestorProfile        *string                 `json:"investorProfile"` // Conservative, Moderate, Aggressive
	EstablishmentName      *string                 `json:"establishmentName"`
	EstablishmentCode      *string                 `json:"establishmentCode"`
	FinancialRelationships *FinancialRelationships `json:"financialRelationships"`
	Qualifications         *Qualifications         `json:"qualifications"`
	SocialName             *string                 `json:"socialName"`
	Sex                    *string                 `json:"sex"` // FEMALE, MALE, OTHER
	MaritalStatus          *MaritalStatus          `json:"maritalStatus"`
	Nationality            *Nationality            `json:"nationality"`
	OtherDocuments         []IdentityDocument      `json:"otherDocuments"`
	Passport               *Passport               `json:"passport"`
	IncorporationDate      *Time                   `json:"incorporationDate"`
	Parties                []BusinessParty         `json:"parties"`
	BusinessOtherDocuments []BusinessOtherDocument `json:"businessOtherDocuments"`
	CompaniesCNPJ          []string                `json:"companiesCnpj"`
	CreatedAt              Time                    `json:"createdAt"`
	UpdatedAt              Time                    `json:"updatedAt"`
}
