-- Payment initiation: institutions, customers, recipients, requests, intents (with every
-- status they passed through) and scheduled payments.

CREATE TABLE payment_institutions (
    id         uuid PRIMARY KEY,
    name       text NOT NULL,
    trade_name text NOT NULL,
    ispb       text NOT NULL UNIQUE,
    compe      text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_institutions_name ON payment_institutions (lower(trade_name), id);

CREATE TABLE payment_customers (
    id         uuid PRIMARY KEY,
    client_id  uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    type       text NOT NULL,
    name       text NOT NULL,
    email      text,
    cpf        text,
    cnpj       text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    -- Requests keep pointing at a deleted customer; lists and reads no longer show it.
    deleted_at timestamptz
);
CREATE INDEX payment_customers_client ON payment_customers (client_id, created_at DESC, id) WHERE deleted_at IS NULL;

CREATE TABLE payment_recipients (
    id             uuid PRIMARY KEY,
    client_id      uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    name           text NOT NULL,
    tax_number     text NOT NULL,
    is_default     boolean NOT NULL DEFAULT false,
    institution_id uuid NOT NULL REFERENCES payment_institutions (id),
    account        jsonb NOT NULL,
    pix_key        text,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    deleted_at     timestamptz
);
CREATE INDEX payment_recipients_client ON payment_recipients (client_id, created_at DESC, id) WHERE deleted_at IS NULL;
-- At most one default recipient per application.
CREATE UNIQUE INDEX payment_recipients_default ON payment_recipients (client_id) WHERE is_default AND deleted_at IS NULL;

CREATE TABLE payment_requests (
    id                uuid PRIMARY KEY,
    client_id         uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    status            text NOT NULL,
    amount            numeric(14, 2) NOT NULL,
    fees              numeric(14, 2) NOT NULL,
    description       text,
    client_payment_id text,
    callback_urls     jsonb,
    recipient_id      uuid REFERENCES payment_recipients (id),
    customer_id       uuid REFERENCES payment_customers (id),
    pix_qr_code       jsonb,
    schedule          jsonb,
    error_detail      jsonb,
    is_sandbox        boolean NOT NULL DEFAULT false,
    webhook_url       text,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    deleted_at        timestamptz
);
CREATE INDEX payment_requests_client ON payment_requests (client_id, created_at DESC, id) WHERE deleted_at IS NULL;

CREATE TABLE payment_intents (
    id              uuid PRIMARY KEY,
    client_id       uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    request_id      uuid NOT NULL REFERENCES payment_requests (id),
    connector_id    integer NOT NULL REFERENCES connectors (id),
    status          text NOT NULL,
    payment_method  text NOT NULL,
    is_dynamic_pix  boolean NOT NULL DEFAULT false,
    payer           jsonb NOT NULL,
    reference_id    text,
    pix_data        jsonb,
    debtor          jsonb,
    error_detail    jsonb,
    -- Set when the attempt ends (settled, failed, timed out): it no longer holds the request.
    active          boolean NOT NULL DEFAULT true,
    authorize_by    timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX payment_intents_client ON payment_intents (client_id, created_at DESC, id);
CREATE INDEX payment_intents_request ON payment_intents (request_id, created_at);
-- The last word on races: a request has at most one attempt under way.
CREATE UNIQUE INDEX payment_intents_one_active ON payment_intents (request_id) WHERE active;

CREATE TABLE payment_intent_steps (
    intent_id  uuid NOT NULL REFERENCES payment_intents (id) ON DELETE CASCADE,
    seq        integer NOT NULL,
    status     text NOT NULL,
    at         timestamptz NOT NULL,
    PRIMARY KEY (intent_id, seq)
);

CREATE TABLE scheduled_payments (
    id             uuid PRIMARY KEY,
    request_id     uuid NOT NULL REFERENCES payment_requests (id),
    client_id      uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    scheduled_date date NOT NULL,
    status         text NOT NULL,
    description    text,
    error_detail   jsonb,
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX scheduled_payments_request ON scheduled_payments (request_id, scheduled_date, id);

-- Fees by payment method: {"PIX": {"fixed": 0.0, "percent": 0.0}, "BOLETO": {...}}.
ALTER TABLE client_applications ADD COLUMN payment_pricing jsonb NOT NULL DEFAULT '{}';

-- Payment institutions: participants of Brazil's payment system (STR/SPI), by ISPB and COMPE.
INSERT INTO payment_institutions (id, name, trade_name, ispb, compe)
SELECT md5('payment-institution:' || ispb)::uuid, name, trade_name, ispb, compe FROM (VALUES
 ('BCO DO BRASIL S.A.', 'Banco do Brasil', '00000000', '001'),
 ('BRB - BCO DE BRASILIA S.A.', 'BRB', '00000208', '070'),
 ('UNICRED DO BRASIL', 'Unicred', '00315557', '136'),
 ('CAIXA ECONOMICA FEDERAL', 'Caixa', '00360305', '104'),
 ('BANCO INTER S.A.', 'Inter', '00416968', '077'),
 ('BANCO CETELEM S.A.', 'Cetelem', '00558456', '739'),
 ('BANCO SEMEAR S.A.', 'Semear', '00795423', '743'),
 ('BANCO RABOBANK INTERNATIONAL BRASIL S.A.', 'Rabobank', '01023570', '747'),
 ('BANCO COOPERATIVO SICREDI S.A.', 'Sicredi', '01181521', '748'),
 ('BANCO COOPERATIVO SICOOB S.A.', 'Sicoob', '02038232', '756'),
 ('BANCO J. SAFRA S.A.', 'J. Safra', '03017677', '074'),
 ('BANCO TOYOTA DO BRASIL S.A.', 'Toyota', '03215790', '387'),
 ('BANCO ALFA S.A.', 'Alfa', '03323840', '025'),
 ('BANCO DA AMAZONIA S.A.', 'Banco da Amazônia', '04902979', '003'),
 ('BCO DO EST. DO PA S.A.', 'Banpará', '04913711', '037'),
 ('COOPERATIVA CENTRAL AILOS', 'Ailos', '05463212', '085'),
 ('BANCO DO NORDESTE DO BRASIL S.A.', 'Banco do Nordeste', '07237373', '004'),
 ('BANCO TOPAZIO S.A.', 'Topázio', '07679404', '082'),
 ('PAGSEGURO INTERNET INSTITUICAO DE PAGAMENTO S.A.', 'PagBank', '08561701', '290'),
 ('CONFEDERACAO NACIONAL DAS COOPERATIVAS CENTRAIS DE CREDITO - CRESOL', 'Cresol', '10398952', '133'),
 ('MERCADO PAGO INSTITUICAO DE PAGAMENTO LTDA.', 'Mercado Pago', '10573521', '323'),
 ('BANCO AGIBANK S.A.', 'Agibank', '10664513', '121'),
 ('BANCO DA CHINA BRASIL S.A.', 'Bank of China Brasil', '10690848', '083'),
 ('BANCO RANDON S.A.', 'Randon', '11476673', '088'),
 ('BANCO WESTERN UNION DO BRASIL S.A.', 'Western Union', '13720915', '119'),
 ('BANCO DO ESTADO DE SERGIPE S.A.', 'Banese', '13009717', '047'),
 ('BANCO BOCOM BBM S.A.', 'Bocom BBM', '15114366', '107'),
 ('STONE INSTITUICAO DE PAGAMENTO S.A.', 'Stone', '16501555', '197'),
 ('BANCO MERCANTIL DO BRASIL S.A.', 'Mercantil do Brasil', '17184037', '389'),
 ('BANCO ITAU BBA S.A.', 'Itaú BBA', '17298092', '184'),
 ('BANCO TRIANGULO S.A.', 'Tribanco', '17351180', '634'),
 ('ICBC DO BRASIL BANCO MULTIPLO S.A.', 'ICBC', '17453575', '132'),
 ('NU PAGAMENTOS S.A. - INSTITUICAO DE PAGAMENTO', 'Nubank', '18236120', '260'),
 ('PICPAY INSTITUICAO DE PAGAMENTO S.A.', 'PicPay', '22896431', '380'),
 ('BANCO DIGIO S.A.', 'Digio', '27098060', '335'),
 ('BANCO ABC BRASIL S.A.', 'ABC Brasil', '28195667', '246'),
 ('BANESTES S.A. BANCO DO ESTADO DO ESPIRITO SANTO', 'Banestes', '28127603', '021'),
 ('BANCO BTG PACTUAL S.A.', 'BTG Pactual', '30306294', '208'),
 ('BANCO MODAL S.A.', 'Modal', '30723886', '746'),
 ('BANCO C6 S.A.', 'C6 Bank', '31872495', '336'),
 ('BANCO INDUSTRIAL DO BRASIL S.A.', 'Banco Industrial', '31895683', '604'),
 ('BANCO CREDIT SUISSE (BRASIL) S.A.', 'Credit Suisse', '32062580', '505'),
 ('BANCO J.P. MORGAN S.A.', 'J.P. Morgan', '33172537', '376'),
 ('BANCO XP S.A.', 'XP', '33264668', '348'),
 ('BANCO CITIBANK S.A.', 'Citibank', '33479023', '745'),
 ('BANCO NACIONAL DE DESENVOLVIMENTO ECONOMICO E SOCIAL', 'BNDES', '33657248', '007'),
 ('CORA SOCIEDADE DE CREDITO DIRETO S.A.', 'Cora', '37880206', '403'),
 ('BANCO GENIAL S.A.', 'Genial', '45246410', '125'),
 ('BANCO ARBI S.A.', 'Arbi', '54403563', '213'),
 ('BANCO TRICURY S.A.', 'Tricury', '57839805', '018'),
 ('BANCO SAFRA S.A.', 'Safra', '58160789', '422'),
 ('BANCO SMARTBANK S.A.', 'Smartbank', '58497702', '630'),
 ('BANCO FIBRA S.A.', 'Fibra', '58616418', '224'),
 ('BANCO VOLKSWAGEN S.A.', 'Volkswagen', '59109165', '393'),
 ('BANCO LUSO BRASILEIRO S.A.', 'Luso Brasileiro', '59118133', '600'),
 ('BANCO PAN S.A.', 'Pan', '59285411', '623'),
 ('BANCO VOTORANTIM S.A.', 'BV', '59588111', '655'),
 ('BANCO MUFG BRASIL S.A.', 'MUFG', '60498557', '456'),
 ('BANCO SUMITOMO MITSUI BRASILEIRO S.A.', 'Sumitomo Mitsui', '60518222', '464'),
 ('ITAU UNIBANCO S.A.', 'Itaú', '60701190', '341'),
 ('BANCO BRADESCO S.A.', 'Bradesco', '60746948', '237'),
 ('BANCO SOFISA S.A.', 'Sofisa', '60889128', '637'),
 ('BANCO CREFISA S.A.', 'Crefisa', '61033106', '069'),
 ('BANCO BMG S.A.', 'BMG', '61186680', '318'),
 ('BANCO PAULISTA S.A.', 'Paulista', '61820817', '611'),
 ('BANCO PINE S.A.', 'Pine', '62144175', '643'),
 ('BANCO DAYCOVAL S.A.', 'Daycoval', '62232889', '707'),
 ('BANCO RENDIMENTO S.A.', 'Rendimento', '68900810', '633'),
 ('BANCO BS2 S.A.', 'BS2', '71027866', '218'),
 ('BANCO OURINVEST S.A.', 'Ourinvest', '78632767', '712'),
 ('BANCO DO ESTADO DO RIO GRANDE DO SUL S.A.', 'Banrisul', '92702067', '041'),
 ('BANCO ORIGINAL S.A.', 'Original', '92894922', '212'),
 ('BANCO SANTANDER (BRASIL) S.A.', 'Santander', '90400888', '033')
) AS v (name, trade_name, ispb, compe);
