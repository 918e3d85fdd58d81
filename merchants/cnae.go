package merchants

// The CNAE (Classificação Nacional de Atividades Econômicas, IBGE's CNAE 2.3) of an
// establishment's main activity gives its merchant category: the label a merchant shows
// and the category id of the transaction tree the categorizer assigns. A subclass has 7
// digits (division 2, group 3, class 5); the table names prefixes and the longest one that
// matches wins, so a subclass can differ from its class. docs/merchants.md shows this
// table (TestCNAETableDocumented keeps the two equal).

// Category is what a CNAE prefix gives.
type Category struct {
	Label      string // the merchant's category, as transactions' merchant.category
	CategoryID string // the transaction category tree's id
}

// cnaeTable maps CNAE prefixes to categories, in the docs page's order.
var cnaeTable = []struct {
	Prefix string
	Category
}{
	{"1091", Category{"Padaria", "09040000"}},
	{"4711", Category{"Supermercado", "09030000"}},
	{"4712", Category{"Supermercado", "09030000"}},
	{"4713", Category{"Lojas de departamento", "08110000"}},
	{"4713004", Category{"Compras online", "08010000"}},
	{"4721", Category{"Padaria", "09040000"}},
	{"4722", Category{"Hortifrúti e açougue", "09070000"}},
	{"4723", Category{"Bebidas", "09080000"}},
	{"4724", Category{"Hortifrúti e açougue", "09070000"}},
	{"4729", Category{"Supermercado", "09030000"}},
	{"4731", Category{"Combustível", "11030000"}},
	{"4732", Category{"Combustível", "11030000"}},
	{"4741", Category{"Material de construção", "08080000"}},
	{"4742", Category{"Material de construção", "08080000"}},
	{"4743", Category{"Material de construção", "08080000"}},
	{"4744", Category{"Material de construção", "08080000"}},
	{"4751", Category{"Eletrônicos", "08020000"}},
	{"4752", Category{"Eletrônicos", "08020000"}},
	{"4753", Category{"Eletrônicos", "08020000"}},
	{"4754", Category{"Casa e decoração", "08070000"}},
	{"4755", Category{"Casa e decoração", "08070000"}},
	{"4756", Category{"Casa e decoração", "08070000"}},
	{"4757", Category{"Eletrônicos", "08020000"}},
	{"4759", Category{"Casa e decoração", "08070000"}},
	{"4761", Category{"Livraria e papelaria", "08050000"}},
	{"4762", Category{"Eletrônicos", "08020000"}},
	{"4763", Category{"Artigos esportivos", "08060000"}},
	{"4763601", Category{"Brinquedos", "08120000"}},
	{"4771", Category{"Farmácia", "14010000"}},
	{"4772", Category{"Beleza e cosméticos", "08090000"}},
	{"4773", Category{"Farmácia", "14010000"}},
	{"4774", Category{"Óticas", "14040000"}},
	{"4781", Category{"Vestuário", "08030000"}},
	{"4782", Category{"Vestuário", "08030000"}},
	{"4783", Category{"Presentes", "08100000"}},
	{"4789", Category{"Compras", "08000000"}},
	{"4789004", Category{"Pet shop", "08040000"}},
	{"4911", Category{"Transporte público", "11020000"}},
	{"4921", Category{"Transporte público", "11020000"}},
	{"4922", Category{"Passagens rodoviárias", "10050000"}},
	{"4923", Category{"Táxi e aplicativos", "11010000"}},
	{"5111", Category{"Passagens aéreas", "10010000"}},
	{"5112", Category{"Passagens aéreas", "10010000"}},
	{"5221", Category{"Pedágio", "11050000"}},
	{"5223", Category{"Estacionamento", "11040000"}},
	{"5310", Category{"Correios e entregas", "07100000"}},
	{"5320", Category{"Correios e entregas", "07100000"}},
	{"5510", Category{"Hospedagem", "10020000"}},
	{"5590", Category{"Hospedagem", "10020000"}},
	{"5611201", Category{"Restaurante", "09010000"}},
	{"5611202", Category{"Bares", "09050000"}},
	{"5611203", Category{"Lanchonetes e cafeterias", "09060000"}},
	{"5611204", Category{"Bares", "09050000"}},
	{"5611205", Category{"Bares", "09050000"}},
	{"5612", Category{"Restaurante", "09010000"}},
	{"5620", Category{"Restaurante", "09010000"}},
	{"5911", Category{"Streaming", "16010000"}},
	{"5914", Category{"Cinema e eventos", "16040000"}},
	{"5920", Category{"Streaming de música", "16020000"}},
	{"61", Category{"Telecomunicações", "07010000"}},
	{"6201", Category{"Software e nuvem", "07110000"}},
	{"6203", Category{"Software e nuvem", "07110000"}},
	{"6311", Category{"Software e nuvem", "07110000"}},
	{"6511", Category{"Seguros", "12000000"}},
	{"6512", Category{"Seguros", "12000000"}},
	{"6550", Category{"Plano de saúde", "14050000"}},
	{"7711", Category{"Aluguel de veículo", "11070000"}},
	{"7911", Category{"Agências de viagem", "10030000"}},
	{"8511", Category{"Creche", "15080000"}},
	{"8512", Category{"Escola", "15010000"}},
	{"8513", Category{"Escola", "15010000"}},
	{"8520", Category{"Escola", "15010000"}},
	{"8531", Category{"Universidade", "15020000"}},
	{"8532", Category{"Universidade", "15020000"}},
	{"8533", Category{"Universidade", "15020000"}},
	{"8591", Category{"Cursos", "15070000"}},
	{"8593", Category{"Cursos de idiomas", "15050000"}},
	{"8599", Category{"Cursos", "15070000"}},
	{"8610", Category{"Hospitais e clínicas", "14030000"}},
	{"8630", Category{"Consultas médicas", "14080000"}},
	{"8630504", Category{"Dentista", "14020000"}},
	{"8640", Category{"Exames laboratoriais", "14070000"}},
	{"8650", Category{"Saúde", "14000000"}},
	{"9200", Category{"Apostas", "18010000"}},
	{"9311", Category{"Eventos esportivos", "16050000"}},
	{"9312", Category{"Clubes e associações", "16060000"}},
	{"9313", Category{"Academia", "14060000"}},
	{"9321", Category{"Parques e atrações", "16080000"}},
	{"9491", Category{"Dízimos e ofertas", "17020000"}},
	{"9601", Category{"Lavanderia", "07080000"}},
	{"9602", Category{"Beleza e cosméticos", "08090000"}},
	{"7500", Category{"Veterinário", "14100000"}},
}

// cnaeIndex is the table by prefix.
var cnaeIndex = func() map[string]Category {
	m := make(map[string]Category, len(cnaeTable))
	for _, e := range cnaeTable {
		m[e.Prefix] = e.Category
	}
	return m
}()

// CategoryOf is the category of a CNAE subclass (7 digits, punctuation removed), by the
// longest prefix the table names.
func CategoryOf(cnae string) (Category, bool) {
	code := make([]byte, 0, 7)
	for i := 0; i < len(cnae) && len(code) < 7; i++ {
		if c := cnae[i]; c >= '0' && c <= '9' {
			code = append(code, c)
		}
	}
	for n := len(code); n >= 2; n-- {
		if c, ok := cnaeIndex[string(code[:n])]; ok {
			return c, true
		}
	}
	return Category{}, false
}

// TableSize is how many prefixes the table names (the docs page shows each).
func TableSize() int { return len(cnaeTable) }
