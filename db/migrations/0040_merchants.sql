-- Part M of issue 39: the merchant directory behind GET /merchants, the categorizer and
-- the transactions' merchant field. It mirrors the Receita Federal's CNPJ open data:
-- companies (Empresas: the 8-character root and the registered name) and establishments
-- (Estabelecimentos: the full CNPJ, trade name, main CNAE). `ponte merchants import` fills
-- both with COPY; the sandbox's merchants are rows of the same tables, so they answer too.
CREATE TABLE merchant_companies (
    cnpj_root     text PRIMARY KEY,
    business_name text NOT NULL
);

-- cnpj is bare, 14 characters, letters in upper case (the 2026 alphanumeric CNPJ). Lookups
-- are by cnpj (the key) and join companies on left(cnpj, 8) (their key).
CREATE TABLE merchants (
    cnpj       text PRIMARY KEY,
    trade_name text NOT NULL DEFAULT '',
    cnae       text NOT NULL DEFAULT '',
    -- situação cadastral: 01 nula, 02 ativa, 03 suspensa, 04 inapta, 08 baixada.
    status     text NOT NULL DEFAULT ''
);

-- What an import loaded, one row per file, written in the transaction that loaded it: a
-- run that stops re-reads only the files without a row (or whose size changed).
CREATE TABLE merchant_import_files (
    name      text PRIMARY KEY,
    size      bigint NOT NULL,
    kind      text NOT NULL CHECK (kind IN ('EMPRESAS', 'ESTABELECIMENTOS')),
    rows      bigint NOT NULL,
    loaded_at timestamptz NOT NULL DEFAULT now()
);

-- The sandbox's merchants (sandbox/world.go's seeds, same CNPJs).
INSERT INTO merchant_companies (cnpj_root, business_name) VALUES
    ('91036958', 'IFOOD.COM AGENCIA DE RESTAURANTES ONLINE S.A.'),
    ('98557844', 'UBER DO BRASIL TECNOLOGIA LTDA.'),
    ('76176860', '99 TECNOLOGIA LTDA'),
    ('55785360', 'COMPANHIA BRASILEIRA DE DISTRIBUICAO'),
    ('07665418', 'CARREFOUR COMERCIO E INDUSTRIA LTDA'),
    ('00803439', 'RAIA DROGASIL S.A.'),
    ('07565772', 'IPIRANGA PRODUTOS DE PETROLEO S.A.'),
    ('40266893', 'AMAZON SERVICOS DE VAREJO DO BRASIL LTDA.'),
    ('09412499', 'EBAZAR.COM.BR LTDA'),
    ('36493033', 'LOJAS RENNER S.A.'),
    ('08884856', 'PANIFICADORA REAL LTDA'),
    ('57451532', 'SBF COMERCIO DE CAFES LTDA'),
    ('79577628', 'BLOOMIN BRANDS BRASIL LTDA'),
    ('03592608', 'TAM LINHAS AEREAS S.A.'),
    ('00326495', 'KABUM COMERCIO ELETRONICO S.A.'),
    ('82398864', 'PET CENTER COMERCIO E PARTICIPACOES S.A.'),
    ('89941565', 'CINEMARK BRASIL S.A.'),
    ('91625193', 'ALLPARK EMPREENDIMENTOS PARTICIPACOES E SERVICOS S.A.'),
    ('79192834', 'S.A. SEM PARAR INSTITUICAO DE PAGAMENTO'),
    ('37931467', 'ZX VENTURES BRASIL LTDA'),
    ('23331356', 'MAGAZINE LUIZA S.A.'),
    ('27919847', 'DECATHLON COMERCIO DE ARTIGOS ESPORTIVOS LTDA'),
    ('16731196', 'NETFLIX ENTRETENIMENTO BRASIL LTDA.'),
    ('12767992', 'SPOTIFY BRASIL SERVICOS DE MUSICA LTDA.'),
    ('43971993', 'SMARTFIT ESCOLA DE GINASTICA E DANCA S.A.');

INSERT INTO merchants (cnpj, trade_name, cnae, status) VALUES
    ('91036958000198', 'IFOOD *RESTAURANTE SABOR', '7319002', '02'),
    ('98557844000132', 'UBER *TRIP', '8299799', '02'),
    ('76176860000142', '99APP *99POP', '7490104', '02'),
    ('55785360000138', 'SUPERMERCADO PAO DE ACUCAR', '4711301', '02'),
    ('07665418000167', 'CARREFOUR HIPER', '4711301', '02'),
    ('00803439000152', 'DROGASIL 1234', '4771701', '02'),
    ('07565772000110', 'POSTO IPIRANGA AV BRASIL', '4731800', '02'),
    ('40266893000136', 'AMAZON MARKETPLACE', '4713004', '02'),
    ('09412499000119', 'MERCADOLIVRE*VENDEDOR', '4713004', '02'),
    ('36493033000168', 'RENNER SHOPPING IGUATEMI', '4781400', '02'),
    ('08884856000189', 'PADARIA REAL', '1091102', '02'),
    ('57451532000162', 'STARBUCKS PAULISTA', '5611203', '02'),
    ('79577628000104', 'OUTBACK STEAKHOUSE', '5611201', '02'),
    ('03592608000140', 'LATAM AIRLINES', '5111100', '02'),
    ('00326495000143', 'KABUM', '4751201', '02'),
    ('82398864000178', 'PETZ', '4789004', '02'),
    ('89941565000187', 'CINEMARK', '5914600', '02'),
    ('91625193000121', 'ESTAPAR', '5223100', '02'),
    ('79192834000104', 'SEM PARAR', '5221400', '02'),
    ('37931467000165', 'ZE DELIVERY', '4723700', '02'),
    ('23331356000103', 'MAGALU', '4753900', '02'),
    ('27919847000120', 'DECATHLON MORUMBI', '4763602', '02'),
    ('16731196000124', 'NETFLIX.COM', '5911199', '02'),
    ('12767992000166', 'SPOTIFY', '5920100', '02'),
    ('43971993000151', 'SMART FIT', '9313100', '02');
