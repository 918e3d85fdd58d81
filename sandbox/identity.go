package sandbox

// The holder's identity as the institution registers it.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ponte/model"
)

func (g *gen) identity() {
	w := g.w
	rng := rngFor(w.seed, 81)
	birth := time.Date(1970+rng.IntN(30), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	parts := strings.Fields(upper(w.holder.name))
	email := strings.ToLower(parts[0] + "." + parts[len(parts)-1])
	female := strings.HasSuffix(strings.Fields(w.holder.name)[0], "a")
	sex := "MALE"
	if female {
		sex = "FEMALE"
	}
	mobile := fmt.Sprintf("9%04d%04d", rng.IntN(1e4), rng.IntN(1e4))
	acc := strings.Split(w.holder.account, "-")
	since := time.Date(2012+rng.IntN(8), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	rg := fmt.Sprintf("%08d", rng.IntN(1e8))
	g.snap.Identity = &model.Identity{
		ID: g.id("identity", "holder"), ItemID: g.item, BirthDate: tp(birth), TaxNumber: sp(w.holder.doc),
		Document: sp(w.holder.doc), DocumentType: sp("CPF"), JobTitle: sp("Analista de Sistemas"),
		CompanyName: sp(w.employer.name), FullName: sp(w.holder.name),
		PhoneNumbers: []model.Phone{
			{Type: sp("Personal"), Value: "+55 11 " + mobile[:5] + "-" + mobile[5:], AreaCode: sp("11")},
			{Type: sp("Work"), Value: fmt.Sprintf("+55 11 3%03d-%04d", rng.IntN(1000), rng.IntN(1e4)), AreaCode: sp("11"), Extension: sp(strconv.Itoa(200 + rng.IntN(700)))},
		},
		Emails: []model.Email{{Type: sp("Personal"), Value: email + "@example.com.br"}, {Type: sp("Work"), Value: email + "@acme.example"}},
		Addresses: []model.Address{{FullAddress: sp("Rua Augusta, 1500, Apto 82, Consolação, São Paulo - SP, 01304-001"),
			PrimaryAddress: sp("Rua Augusta, 1500"), City: sp("São Paulo"), PostalCode: sp("01304-001"), State: sp("SP"),
			Country: sp("Brasil"), Type: sp("Personal"), AdditionalInfo: sp("Apto 82"), District: sp("Consolação"),
			IBGETownCode: sp("3550308"), CountryCode: sp("BRA"), GeographicCoordinates: &model.GeographicCoordinates{Latitude: -23.5558, Longitude: -46.6622}},
			{FullAddress: sp("Avenida Paulista, 1000, 10º andar, Bela Vista, São Paulo - SP, 01310-100"),
				PrimaryAddress: sp("Avenida Paulista, 1000"), City: sp("São Paulo"), PostalCode: sp("01310-100"), State: sp("SP"),
				Country: sp("Brasil"), Type: sp("Work"), AdditionalInfo: sp("10º andar"), District: sp("Bela Vista"),
				IBGETownCode: sp("3550308"), CountryCode: sp("BRA")}},
		Relations: []model.Relation{
			{Type: sp("Mother"), Name: sp(w.contacts[1].name), Document: sp(w.contacts[1].doc)},
			{Type: sp("Spouse"), Name: sp(w.spouse.name), Document: sp(w.spouse.doc)},
		},
		InvestorProfile: sp("Moderate"),
		FinancialRelationships: &model.FinancialRelationships{StartDate: model.NewTime(since),
			ProductsServicesType: []string{"CONTA_DEPOSITO_A_VISTA", "CONTA_POUPANCA", "CARTAO_CREDITO", "EMPRESTIMO", "INVESTIMENTO"},
			Procurators:          []model.Procurator{},
			Accounts: []model.FinancialRelationshipAccount{{CompeCode: w.institution.compe, BranchCode: w.holder.branch, Number: acc[0],
				CheckDigit: acc[1], Type: "CONTA_DEPOSITO_A_VISTA", Subtype: "INDIVIDUAL"}},
			PaychecksBankLink: []model.PaycheckBankLink{{EmployerName: w.employer.name, EmployerDocument: w.employer.doc,
				PaycheckBankCNPJ: "60701190000104", PaycheckBankISPB: w.institution.ispb, AccountOpeningDate: model.NewTime(since)}}},
		Qualifications: &model.Qualifications{CompanyCNPJ: w.employer.doc, OccupationCode: sp("CBO"), OccupationDescription: sp("212405"),
			InformedIncome:    &model.InformedIncome{Frequency: "MENSAL", Amount: w.salary, Date: model.NewTime(time.Date(g.today.Year()-1, 3, 1, 0, 0, 0, 0, time.UTC))},
			InformedPatrimony: &model.InformedPatrimony{Amount: float64(150000 + 10000*rng.IntN(50)), Year: g.today.Year() - 1}},
		Sex:            sp(sex),
		MaritalStatus:  &model.MaritalStatus{Code: "MARRIED"},
		Nationality:    &model.Nationality{HasBrazilianNationality: true},
		OtherDocuments: []model.IdentityDocument{{Type: "RG", Number: rg, CheckDigit: sp(strconv.Itoa(rng.IntN(10))), AdditionalInfo: sp("SSP/SP")}},
		CompaniesCNPJ:  []string{"60701190000104"},
		CreatedAt:      g.ts, UpdatedAt: g.ts,
	}
}
