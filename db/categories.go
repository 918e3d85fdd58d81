package db

import "ponte/model"

// Categories is the transaction category tree: top-level families, each
// followed by its children. Every parent precedes its children, so the slice
// can be inserted in order without violating the parent_id foreign key.
//
// IDs are stable 8-digit strings in the hosted aggregator's style: a family is
// "NN000000" and its children are "NNMM0000". The form is hierarchical (a
// child's family is its first two digits), never reused or renumbered, and
// compatible with the hosted service's ids, so client code keyed on category
// ids keeps working. Add new categories with new ids; do not renumber.
var Categories = []model.Category{
	catFamily("01000000", "Renda", "Income"),
	catChild("01000000", "01010000", "Salário", "Salary"),
	catChild("01000000", "01020000", "Aposentadoria", "Retirement"),
	catChild("01000000", "01030000", "Atividades empresariais", "Entrepreneurial activities"),
	catChild("01000000", "01040000", "Auxílio governamental", "Government aid"),
	catChild("01000000", "01050000", "Renda não recorrente", "Non-recurring income"),
	catChild("01000000", "01060000", "Juros e rendimentos", "Interest and yields"),
	catChild("01000000", "01070000", "Aluguel recebido", "Rental income"),
	catChild("01000000", "01080000", "Reembolsos", "Refunds"),
	catChild("01000000", "01090000", "Pensão alimentícia recebida", "Alimony and child support received"),
	catChild("01000000", "01100000", "Bonificações e comissões", "Bonuses and commissions"),

	catFamily("02000000", "Empréstimos e financiamentos", "Loans and financing"),
	catChild("02000000", "02010000", "Empréstimo pessoal", "Personal loan"),
	catChild("02000000", "02020000", "Empréstimo consignado", "Payroll-deductible loan"),
	catChild("02000000", "02030000", "Financiamento de veículo", "Vehicle financing"),
	catChild("02000000", "02040000", "Juros de cartão de crédito", "Credit card interest"),
	catChild("02000000", "02050000", "Juros de cheque especial", "Overdraft interest"),
	catChild("02000000", "02060000", "Pagamento de fatura de cartão", "Credit card bill payment"),
	catChild("02000000", "02070000", "Crédito estudantil", "Student loan"),
	catChild("02000000", "02080000", "Renegociação de dívidas", "Debt renegotiation"),
	catChild("02000000", "02090000", "Antecipação do saque-aniversário do FGTS", "FGTS birthday withdrawal advance"),

	catFamily("03000000", "Investimentos", "Investments"),
	catChild("03000000", "03010000", "Renda fixa", "Fixed income"),
	catChild("03000000", "03020000", "Renda variável", "Variable income"),
	catChild("03000000", "03030000", "Fundos de investimento", "Investment funds"),
	catChild("03000000", "03040000", "Previdência privada", "Private pension"),
	catChild("03000000", "03050000", "Criptomoedas", "Cryptocurrencies"),
	catChild("03000000", "03060000", "Poupança", "Savings account"),
	catChild("03000000", "03070000", "Tesouro Direto", "Brazilian Treasury bonds"),
	catChild("03000000", "03080000", "Dividendos e JCP", "Dividends and interest on equity"),
	catChild("03000000", "03090000", "Resgate de investimentos", "Investment redemption"),

	catFamily("04000000", "Mesma titularidade", "Same person transfer"),
	catChild("04000000", "04010000", "Transferência entre contas próprias", "Transfer between own accounts"),
	catChild("04000000", "04020000", "PIX entre contas próprias", "PIX between own accounts"),
	catChild("04000000", "04030000", "TED entre contas próprias", "TED between own accounts"),
	catChild("04000000", "04040000", "Recarga de carteira digital", "Digital wallet top-up"),

	catFamily("05000000", "Transferências", "Transfers"),
	catChild("05000000", "05010000", "PIX", "PIX"),
	catChild("05000000", "05020000", "TED", "TED"),
	catChild("05000000", "05030000", "DOC", "DOC"),
	catChild("05000000", "05040000", "Transferência entre contas", "Transfer between accounts"),
	catChild("05000000", "05050000", "Boleto", "Bank slip (boleto)"),
	catChild("05000000", "05060000", "Débito automático", "Automatic debit"),
	catChild("05000000", "05070000", "Saque", "Cash withdrawal"),
	catChild("05000000", "05080000", "Depósito em dinheiro", "Cash deposit"),
	catChild("05000000", "05090000", "Transferência internacional", "International transfer"),

	catFamily("06000000", "Documentos obrigatórios e impostos", "Legal obligations and taxes"),
	catChild("06000000", "06010000", "IPVA", "Vehicle property tax (IPVA)"),
	catChild("06000000", "06020000", "IPTU", "Urban property tax (IPTU)"),
	catChild("06000000", "06030000", "Imposto de renda", "Income tax"),
	catChild("06000000", "06040000", "DARF", "Federal tax payment (DARF)"),
	catChild("06000000", "06050000", "Multas de trânsito", "Traffic fines"),
	catChild("06000000", "06060000", "Licenciamento de veículo", "Vehicle licensing"),
	catChild("06000000", "06070000", "Taxas cartoriais", "Notary fees"),
	catChild("06000000", "06080000", "INSS e contribuições previdenciárias", "Social security contributions (INSS)"),
	catChild("06000000", "06090000", "Simples Nacional (DAS)", "Simplified tax regime (DAS)"),
	catChild("06000000", "06100000", "Emissão de documentos", "Document issuance fees"),

	catFamily("07000000", "Serviços", "Services"),
	catChild("07000000", "07010000", "Telecomunicações", "Telecommunications"),
	catChild("07000000", "07020000", "Internet", "Internet"),
	catChild("07000000", "07030000", "Celular", "Mobile phone"),
	catChild("07000000", "07040000", "TV por assinatura", "Pay TV"),
	catChild("07000000", "07050000", "Água e esgoto", "Water and sewage"),
	catChild("07000000", "07060000", "Energia elétrica", "Electricity"),
	catChild("07000000", "07070000", "Gás", "Gas"),
	catChild("07000000", "07080000", "Lavanderia", "Laundry"),
	catChild("07000000", "07090000", "Serviços profissionais", "Professional services"),
	catChild("07000000", "07100000", "Correios e entregas", "Postal and courier services"),
	catChild("07000000", "07110000", "Software e armazenamento em nuvem", "Software and cloud storage"),

	catFamily("08000000", "Compras", "Shopping"),
	catChild("08000000", "08010000", "Compras online", "Online shopping"),
	catChild("08000000", "08020000", "Eletrônicos", "Electronics"),
	catChild("08000000", "08030000", "Vestuário e calçados", "Clothing and footwear"),
	catChild("08000000", "08040000", "Pet shop", "Pet supplies"),
	catChild("08000000", "08050000", "Livraria e papelaria", "Bookstores and stationery"),
	catChild("08000000", "08060000", "Artigos esportivos", "Sporting goods"),
	catChild("08000000", "08070000", "Casa e decoração", "Home and decor"),
	catChild("08000000", "08080000", "Material de construção", "Building materials"),
	catChild("08000000", "08090000", "Beleza e cosméticos", "Beauty and cosmetics"),
	catChild("08000000", "08100000", "Presentes", "Gifts"),
	catChild("08000000", "08110000", "Lojas de departamento", "Department stores"),
	catChild("08000000", "08120000", "Brinquedos e artigos infantis", "Toys and children's items"),

	catFamily("09000000", "Alimentação", "Food and drinks"),
	catChild("09000000", "09010000", "Restaurantes", "Restaurants"),
	catChild("09000000", "09020000", "Delivery de comida", "Food delivery"),
	catChild("09000000", "09030000", "Supermercado", "Groceries"),
	catChild("09000000", "09040000", "Padaria", "Bakery"),
	catChild("09000000", "09050000", "Bares", "Bars"),
	catChild("09000000", "09060000", "Lanchonetes e cafeterias", "Snack bars and coffee shops"),
	catChild("09000000", "09070000", "Hortifrúti e açougue", "Produce and butcher shops"),
	catChild("09000000", "09080000", "Adegas e bebidas", "Liquor stores"),

	catFamily("10000000", "Viagem", "Travel"),
	catChild("10000000", "10010000", "Passagens aéreas", "Airline tickets"),
	catChild("10000000", "10020000", "Hospedagem", "Accommodation"),
	catChild("10000000", "10030000", "Agências de viagem", "Travel agencies"),
	catChild("10000000", "10040000", "Câmbio", "Currency exchange"),
	catChild("10000000", "10050000", "Passagens rodoviárias", "Bus tickets"),
	catChild("10000000", "10060000", "Compras no exterior", "Purchases abroad"),
	catChild("10000000", "10070000", "Milhas e programas de fidelidade", "Miles and loyalty programs"),

	catFamily("11000000", "Transporte", "Transportation"),
	catChild("11000000", "11010000", "Táxi e carona por aplicativo", "Taxi and ride-hailing"),
	catChild("11000000", "11020000", "Transporte público", "Public transportation"),
	catChild("11000000", "11030000", "Combustível", "Fuel"),
	catChild("11000000", "11040000", "Estacionamento", "Parking"),
	catChild("11000000", "11050000", "Pedágio", "Tolls"),
	catChild("11000000", "11060000", "Manutenção de veículo", "Vehicle maintenance"),
	catChild("11000000", "11070000", "Aluguel de veículo", "Car rental"),
	catChild("11000000", "11080000", "Bicicletas e patinetes compartilhados", "Bike and scooter sharing"),
	catChild("11000000", "11090000", "Lava-rápido", "Car wash"),

	catFamily("12000000", "Seguros", "Insurance"),
	catChild("12000000", "12010000", "Seguro de vida", "Life insurance"),
	catChild("12000000", "12020000", "Seguro auto", "Auto insurance"),
	catChild("12000000", "12030000", "Seguro residencial", "Home insurance"),
	catChild("12000000", "12040000", "Seguro viagem", "Travel insurance"),
	catChild("12000000", "12050000", "Seguro de celular e eletrônicos", "Phone and electronics insurance"),
	catChild("12000000", "12060000", "Seguro prestamista", "Credit protection insurance"),

	catFamily("13000000", "Moradia", "Housing"),
	catChild("13000000", "13010000", "Aluguel", "Rent"),
	catChild("13000000", "13020000", "Condomínio", "Condominium fees"),
	catChild("13000000", "13030000", "Manutenção e reformas", "Maintenance and renovation"),
	catChild("13000000", "13040000", "Financiamento imobiliário", "Mortgage"),
	catChild("13000000", "13050000", "Serviços domésticos", "Domestic services"),
	catChild("13000000", "13060000", "Segurança e monitoramento", "Home security and monitoring"),

	catFamily("14000000", "Saúde", "Healthcare"),
	catChild("14000000", "14010000", "Farmácia", "Pharmacy"),
	catChild("14000000", "14020000", "Dentista", "Dentist"),
	catChild("14000000", "14030000", "Hospitais e clínicas", "Hospitals and clinics"),
	catChild("14000000", "14040000", "Óticas", "Opticians"),
	catChild("14000000", "14050000", "Plano de saúde", "Health insurance plan"),
	catChild("14000000", "14060000", "Academia e bem-estar", "Gym and wellness"),
	catChild("14000000", "14070000", "Exames laboratoriais", "Laboratory tests"),
	catChild("14000000", "14080000", "Consultas médicas", "Medical appointments"),
	catChild("14000000", "14090000", "Terapia e psicologia", "Therapy and psychology"),
	catChild("14000000", "14100000", "Veterinário", "Veterinary care"),

	catFamily("15000000", "Educação", "Education"),
	catChild("15000000", "15010000", "Escola", "School"),
	catChild("15000000", "15020000", "Universidade", "University"),
	catChild("15000000", "15030000", "Cursos online", "Online courses"),
	catChild("15000000", "15040000", "Livros didáticos", "Textbooks"),
	catChild("15000000", "15050000", "Cursos de idiomas", "Language courses"),
	catChild("15000000", "15060000", "Material escolar", "School supplies"),
	catChild("15000000", "15070000", "Cursos profissionalizantes", "Vocational courses"),
	catChild("15000000", "15080000", "Creche", "Daycare"),

	catFamily("16000000", "Lazer", "Leisure"),
	catChild("16000000", "16010000", "Streaming de vídeo", "Video streaming"),
	catChild("16000000", "16020000", "Streaming de música", "Music streaming"),
	catChild("16000000", "16030000", "Jogos", "Gaming"),
	catChild("16000000", "16040000", "Cinema, teatro e shows", "Cinema, theater and concerts"),
	catChild("16000000", "16050000", "Eventos esportivos", "Sporting events"),
	catChild("16000000", "16060000", "Clubes e associações", "Clubs and associations"),
	catChild("16000000", "16070000", "Passatempos e hobbies", "Hobbies"),
	catChild("16000000", "16080000", "Parques e atrações", "Parks and attractions"),

	catFamily("17000000", "Doações", "Donations"),
	catChild("17000000", "17010000", "Instituições de caridade", "Charities"),
	catChild("17000000", "17020000", "Dízimos e ofertas", "Tithes and offerings"),
	catChild("17000000", "17030000", "Vaquinhas e financiamento coletivo", "Crowdfunding"),
	catChild("17000000", "17040000", "Doações eleitorais", "Political donations"),

	catFamily("18000000", "Apostas", "Betting"),
	catChild("18000000", "18010000", "Apostas esportivas", "Sports betting"),
	catChild("18000000", "18020000", "Loterias", "Lotteries"),
	catChild("18000000", "18030000", "Cassino online", "Online casino"),
	catChild("18000000", "18040000", "Prêmios de apostas", "Betting winnings"),

	catFamily("19000000", "Taxas bancárias", "Bank fees"),
	catChild("19000000", "19010000", "Tarifa de manutenção de conta", "Account maintenance fee"),
	catChild("19000000", "19020000", "Tarifa de transferência", "Transfer fee"),
	catChild("19000000", "19030000", "IOF", "Financial transactions tax (IOF)"),
	catChild("19000000", "19040000", "Anuidade de cartão", "Card annual fee"),
	catChild("19000000", "19050000", "Tarifa de saque", "Withdrawal fee"),
	catChild("19000000", "19060000", "Juros e multas por atraso", "Late payment interest and penalties"),
	catChild("19000000", "19070000", "Tarifas de cobrança", "Collection fees"),

	catFamily("20000000", "Outros", "Other"),
	catChild("20000000", "20010000", "Sem categoria", "Uncategorized"),
	catChild("20000000", "20020000", "Estornos", "Reversals"),
	catChild("20000000", "20030000", "Pensão alimentícia paga", "Alimony and child support paid"),
	catChild("20000000", "20040000", "Mesada", "Allowance"),
}

// catFamily builds a top-level category (no parent).
func catFamily(id, pt, en string) model.Category {
	return model.Category{ID: id, Description: pt, DescriptionTranslated: en}
}

// catChild builds a second-level category under the family parent.
func catChild(parent, id, pt, en string) model.Category {
	return model.Category{ID: id, Description: pt, DescriptionTranslated: en, ParentID: &parent}
}
