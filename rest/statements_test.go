package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// stmtLine is one transaction of a statement file a test writes.
type stmtLine struct {
	date, amount, fitid, name string // date YYYYMMDD, amount as OFX writes it
}

// ofxStatement is an OFX 1.x bank statement of account 0260/0001/12345-6 (as a bank exports
// it: SGML, leaf elements unclosed, Latin-1 descriptions), with its ledger balance.
func ofxStatement(from, to, balance string, lines ...stmtLine) string {
	var b strings.Builder
	b.WriteString("OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\n" +
		"COMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n<OFX>\r\n<BANKMSGSRSV1>\r\n<STMTTRNRS>\r\n<TRNUID>1\r\n" +
		"<STMTRS>\r\n<CURDEF>BRL\r\n<BANKACCTFROM>\r\n<BANKID>0260\r\n<BRANCHID>0001\r\n<ACCTID>12345-6\r\n<ACCTTYPE>CHECKING\r\n</BANKACCTFROM>\r\n")
	fmt.Fprintf(&b, "<BANKTRANLIST>\r\n<DTSTART>%s000000[-3:BRT]\r\n<DTEND>%s235959[-3:BRT]\r\n", from, to)
	for _, l := range lines {
		typ := "DEBIT"
		if !strings.HasPrefix(l.amount, "-") {
			typ = "CREDIT"
		}
		fmt.Fprintf(&b, "<STMTTRN>\r\n<TRNTYPE>%s\r\n<DTPOSTED>%s120000[-3:BRT]\r\n<TRNAMT>%s\r\n", typ, l.date, l.amount)
		if l.fitid != "" {
			fmt.Fprintf(&b, "<FITID>%s\r\n", l.fitid)
		}
		fmt.Fprintf(&b, "<MEMO>%s\r\n</STMTTRN>\r\n", l.name)
	}
	fmt.Fprintf(&b, "</BANKTRANLIST>\r\n<LEDGERBAL>\r\n<BALAMT>%s\r\n<DTASOF>%s\r\n</LEDGERBAL>\r\n</STMTRS>\r\n</STMTTRNRS>\r\n</BANKMSGSRSV1>\r\n</OFX>\r\n", balance, to)
	return b.String()
}

// upload posts a statement file as the raw body.
func upload(t *testing.T, env *testsupport.Env, key, itemID, file string) *testsupport.Response {
	t.Helper()
	return env.DoHeaders(t, "POST", "/items/"+itemID+"/statements?name=extrato.ofx", key, file, map[string]string{"Content-Type": "application/x-ofx"})
}

// statementItem creates an item on a statement connector and waits for its first (empty)
// execution.
func statementItem(t *testing.T, env *testsupport.Env, key string, connector int) string {
	t.Helper()
	it := createItem(t, env, key, connector, map[string]any{})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return it.ID.String()
}

// uploadAndWait uploads a file and waits for the execution it starts to end UPDATED.
func uploadAndWait(t *testing.T, env *testsupport.Env, key, itemID, file string) {
	t.Helper()
	var it model.Item
	upload(t, env, key, itemID, file).Want(200).JSON(&it)
	if it.Status != model.ItemUpdating {
		t.Fatalf("an upload answers the item UPDATING, got %s", it.Status)
	}
	done, _ := env.WaitItem(t, key, itemID, testsupport.Settled)
	if done.Status != model.ItemUpdated {
		t.Fatalf("the upload's execution ended %s (%s)", done.Status, done.ExecutionStatus)
	}
}

// createdCount sums transactionsCount over the item's transactions/created events.
func createdCount(t *testing.T, env *testsupport.Env, key, itemID string) int {
	t.Helper()
	n := 0
	for _, ev := range env.Events(t, key, itemID) {
		if ev["event"] == "transactions/created" {
			n += int(ev["payload"].(map[string]any)["transactionsCount"].(float64))
		}
	}
	return n
}

func accountsOf(t *testing.T, env *testsupport.Env, key, itemID string) []model.Account {
	t.Helper()
	var page model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+itemID, key, nil).Want(200).JSON(&page)
	out := make([]model.Account, len(page.Results))
	for i, a := range page.Results {
		out[i] = *a
	}
	return out
}

// Three statements that overlap (a month, a period across its end, and a longer period
// holding both) leave every transaction exactly once, and each is announced as created once.
func TestStatementUploadsOverlap(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "statements").APIKey
	id := statementItem(t, env, key, 900)
	if n := len(accountsOf(t, env, key, id)); n != 0 {
		t.Fatalf("an item without files has %d accounts", n)
	}
	l := func(d, amt, fitid, name string) stmtLine { return stmtLine{d, amt, fitid, name} }
	jan := []stmtLine{l("20260105", "-12.50", "F1", "PADARIA PAO QUENTE"), l("20260110", "5000.00", "F2", "SALARIO ACME"),
		l("20260115", "-230.10", "F3", "ENEL SP"), l("20260125", "-89.90", "F4", "NETFLIX.COM"), l("20260130", "-1500.00", "F5", "ALUGUEL")}
	cross := []stmtLine{jan[3], jan[4], l("20260203", "-45.00", "F6", "UBER *TRIP"), l("20260209", "-300.00", "F7", "PIX ENVIADO MARIA")}
	both := append(append([]stmtLine{}, jan...), cross[2:]...)
	both = append(both, l("20260220", "150.00", "F8", "PIX RECEBIDO JOAO"))

	uploadAndWait(t, env, key, id, ofxStatement("20260101", "20260131", "3167.50", jan...))
	uploadAndWait(t, env, key, id, ofxStatement("20260120", "20260210", "2822.50", cross...))
	uploadAndWait(t, env, key, id, ofxStatement("20260101", "20260228", "2972.50", both...))
	// The same file again changes nothing.
	uploadAndWait(t, env, key, id, ofxStatement("20260120", "20260210", "2822.50", cross...))

	accounts := accountsOf(t, env, key, id)
	if len(accounts) != 1 {
		t.Fatalf("%d accounts, want the file's one", len(accounts))
	}
	acc := accounts[0]
	if acc.Type != "BANK" || acc.Subtype != "CHECKING_ACCOUNT" || acc.Number != "12345-6" || acc.CurrencyCode != "BRL" {
		t.Fatalf("account %+v", acc)
	}
	// The balance is the latest a file gave (28 February), though a file of an earlier
	// period came after it.
	if acc.Balance == nil || *acc.Balance != 2972.50 || acc.BankData == nil || *acc.BankData.ClosingBalance != 2972.50 {
		t.Fatalf("balance %v, want the one of 28 February", acc.Balance)
	}
	var it model.Item
	env.Do(t, "GET", "/items/"+id, key, nil).Want(200).JSON(&it)
	if it.NextAutoSyncAt != nil {
		t.Fatalf("an item fed by files is scheduled to sync at %v", it.NextAutoSyncAt)
	}
	txs := readAll(t, env, key, "/v2/transactions?accountId="+acc.ID.String(), nil)
	seen := map[string]int{}
	for _, tx := range txs {
		seen[*tx.ProviderID]++
	}
	if len(txs) != 8 || len(seen) != 8 {
		t.Fatalf("%d transactions (%v), want F1..F8 once each", len(txs), seen)
	}
	for _, tx := range txs {
		if *tx.ProviderID == "F1" && (tx.Amount != -12.50 || tx.Type != "DEBIT" || tx.Description != "PADARIA PAO QUENTE") {
			t.Fatalf("F1 read as %+v", tx)
		}
		if *tx.ProviderID == "F2" && (tx.Amount != 5000 || tx.Type != "CREDIT" || tx.CategoryID == nil) {
			t.Fatalf("F2 read as %+v (the categorizer applies as for any item)", tx)
		}
	}
	if n := createdCount(t, env, key, id); n != 8 {
		t.Fatalf("transactions/created announced %d transactions, want 8", n)
	}
	for _, ev := range env.Events(t, key, id) {
		if ev["event"] == "transactions/deleted" {
			t.Fatalf("an upload deleted transactions: %v", ev)
		}
	}
}

// CSV lines have no FITID: the fingerprint (day, amount, normalized description, and a
// counter for identical lines of a day) keeps them once across uploads.
func TestStatementCSVFingerprint(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "csv").APIKey
	// Without a mapping the generic CSV connector cannot read anything.
	id := statementItem(t, env, key, 901)
	upload(t, env, key, id, "Data;Descrição;Valor\n05/01/2026;PADARIA;-12,50\n").WantError(400, "CONNECTOR_SETTINGS_INVALID")
	mapping := map[string]any{"delimiter": ";", "columns": map[string]any{"date": "Data", "description": "Descrição", "amount": "Valor"},
		"dateFormat": "DD/MM/YYYY", "decimal": "comma"}
	var set map[string]any
	env.Do(t, "PUT", "/connectors/901/settings", key, mapping).Want(200).JSON(&set)
	if set["settings"].(map[string]any)["dateFormat"] != "DD/MM/YYYY" {
		t.Fatalf("settings answered %v", set)
	}
	a := "Data;Descrição;Valor\n05/01/2026;PADARIA;-12,50\n05/01/2026;PADARIA;-12,50\n06/01/2026;SALÁRIO;5.000,00\n"
	b := "Data;Descrição;Valor\n05/01/2026;Padaria ;-12,50\n05/01/2026;padaria;-12,50\n06/01/2026;Salario;5.000,00\n07/01/2026;MERCADO;-100,00\n"
	uploadAndWait(t, env, key, id, a)
	uploadAndWait(t, env, key, id, b)
	accounts := accountsOf(t, env, key, id)
	if len(accounts) != 1 {
		t.Fatalf("%d accounts", len(accounts))
	}
	txs := readAll(t, env, key, "/v2/transactions?accountId="+accounts[0].ID.String(), nil)
	if len(txs) != 4 {
		t.Fatalf("%d transactions, want the two bakery lines, the salary and the market once each", len(txs))
	}
	if n := createdCount(t, env, key, id); n != 4 {
		t.Fatalf("transactions/created announced %d, want 4", n)
	}
	// The mapping is the application's: another reads none, and DELETE removes it.
	other := env.NewClient(t, "other").APIKey
	var none map[string]any
	env.Do(t, "GET", "/connectors/901/settings", other, nil).Want(200).JSON(&none)
	if none["settings"] != nil {
		t.Fatalf("another application sees %v", none)
	}
	env.Do(t, "DELETE", "/connectors/901/settings", key, nil).Want(200)
	env.Do(t, "GET", "/connectors/901/settings", key, nil).Want(200).JSON(&none)
	if none["settings"] != nil {
		t.Fatalf("after DELETE: %v", none)
	}
}

// A file the institution cannot read is refused with the line it stopped at, and changes
// nothing: no execution, no account, no transaction, no event.
func TestStatementRefusals(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "refusals").APIKey
	id := statementItem(t, env, key, 900)
	good := ofxStatement("20260101", "20260131", "10.00", stmtLine{"20260105", "10.00", "A1", "PIX RECEBIDO"})
	var before model.Item
	env.Do(t, "GET", "/items/"+id, key, nil).Want(200).JSON(&before)
	events := len(env.Events(t, key, id))

	cases := []struct {
		name, file string
		line       float64
	}{
		{"not a statement", "Data,Valor\n01/01/2026,10\n", 1},
		{"truncated", good[:strings.Index(good, "<TRNAMT>")], 28},
		{"an entity bomb", `<?xml version="1.0"?><!DOCTYPE ofx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><OFX>&b;</OFX>`, 1},
		{"NUL bytes", "OFXHEADER:100\n\x00\x00", 2},
		{"deep nesting", "OFXHEADER:100\n\n<OFX>" + strings.Repeat("<A>", 10000), 3},
		{"ten million empty lines", strings.Repeat("\n", 10_000_000), 1},
		{"a bad amount", strings.Replace(good, "<TRNAMT>10.00", "<TRNAMT>dez reais", 1), 29},
	}
	for _, c := range cases {
		m := upload(t, env, key, id, c.file).WantError(400, "STATEMENT_FILE_INVALID")
		line, _ := m["data"].(map[string]any)["line"].(float64)
		msg, _ := m["message"].(string)
		if line != c.line || !strings.Contains(msg, fmt.Sprintf("line %d:", int(c.line))) || !strings.Contains(msg, "Nothing was stored") {
			t.Errorf("%s: %v", c.name, m)
		}
	}
	upload(t, env, key, id, "").WantError(400, "STATEMENT_FILE_INVALID")

	// Over the limit: refused from Content-Length, and while reading a body of unknown length.
	big := io.LimitReader(zeros{}, 64<<20+1)
	for _, length := range []int64{64<<20 + 1, -1} {
		req, _ := http.NewRequest("POST", env.URL+"/items/"+id+"/statements", big)
		req.ContentLength = length
		req.Header.Set("X-API-KEY", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 413 || !bytes.Contains(body, []byte("STATEMENT_FILE_TOO_LARGE")) {
			t.Fatalf("length %d: %d %s", length, resp.StatusCode, body)
		}
		big = io.LimitReader(zeros{}, 64<<20+1)
	}

	var after model.Item
	env.Do(t, "GET", "/items/"+id, key, nil).Want(200).JSON(&after)
	if after.Status != before.Status || !after.UpdatedAt.Equal(before.UpdatedAt.Time) || len(env.Events(t, key, id)) != events || len(accountsOf(t, env, key, id)) != 0 {
		t.Fatalf("a refused file changed the item: %+v", after)
	}

	// A sandbox item takes no files.
	sandboxItem := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	upload(t, env, key, sandboxItem.ID.String(), good).WantError(400, "ITEM_TAKES_NO_STATEMENT_FILES")
	// A card statement on an item that collects only ACCOUNTS is refused.
	var acctOnly model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 900, "parameters": map[string]any{}, "products": []string{"ACCOUNTS", "TRANSACTIONS"}}).Want(200).JSON(&acctOnly)
	env.WaitItem(t, key, acctOnly.ID.String(), testsupport.Settled)
	card := strings.NewReplacer("BANKMSGSRSV1", "CREDITCARDMSGSRSV1", "<STMTTRNRS>", "<CCSTMTTRNRS>", "</STMTTRNRS>", "</CCSTMTTRNRS>",
		"<STMTRS>", "<CCSTMTRS>", "</STMTRS>", "</CCSTMTRS>", "BANKACCTFROM", "CCACCTFROM", "<BANKID>0260\r\n", "", "<BRANCHID>0001\r\n", "",
		"<ACCTTYPE>CHECKING\r\n", "").Replace(good)
	upload(t, env, key, acctOnly.ID.String(), card).WantError(400, "STATEMENT_FILE_INVALID")

	// Settings: only CSV connectors have them, and a bad mapping says what is wrong.
	env.Do(t, "PUT", "/connectors/0/settings", key, map[string]any{"a": 1}).WantError(400, "CONNECTOR_TAKES_NO_SETTINGS")
	env.Do(t, "PUT", "/connectors/901/settings", key, map[string]any{"columns": map[string]any{"date": "Data"}}).WantError(400, "CONNECTOR_SETTINGS_INVALID")
	env.Do(t, "PUT", "/connectors/901/settings", key, map[string]any{"colums": 1}).WantError(400, "CONNECTOR_SETTINGS_INVALID")
	env.Do(t, "PUT", "/connectors/999999/settings", key, map[string]any{}).WantError(404, "CONNECTOR_NOT_FOUND")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// A browser form or curl -F sends the file as the part named file of a multipart body; a
// card statement becomes a credit card account with purchases as positive DEBITs.
func TestStatementMultipartCard(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "multipart").APIKey
	id := statementItem(t, env, key, 900)
	card := `<?xml version="1.0" encoding="UTF-8"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1</TRNUID><CCSTMTRS><CURDEF>BRL</CURDEF>
<CCACCTFROM><ACCTID>5502********1234</ACCTID></CCACCTFROM>
<BANKTRANLIST><DTSTART>20260101</DTSTART><DTEND>20260131</DTEND>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260110</DTPOSTED><TRNAMT>-59.90</TRNAMT><FITID>C1</FITID><NAME>IFOOD *RESTAURANTE</NAME></STMTTRN>
<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260120</DTPOSTED><TRNAMT>500.00</TRNAMT><FITID>C2</FITID><NAME>PAGAMENTO RECEBIDO</NAME></STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>-1059.90</BALAMT><DTASOF>20260131</DTASOF></LEDGERBAL></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "fatura.ofx")
	part.Write([]byte(card))
	mw.Close()
	env.DoHeaders(t, "POST", "/items/"+id+"/statements", key, body.Bytes(), map[string]string{"Content-Type": mw.FormDataContentType()}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	accounts := accountsOf(t, env, key, id)
	if len(accounts) != 1 || accounts[0].Type != "CREDIT" || accounts[0].Subtype != "CREDIT_CARD" || *accounts[0].Balance != 1059.90 {
		t.Fatalf("accounts %+v", accounts)
	}
	txs := readAll(t, env, key, "/v2/transactions?accountId="+accounts[0].ID.String(), nil)
	if len(txs) != 2 {
		t.Fatalf("%d transactions", len(txs))
	}
	for _, tx := range txs {
		if (*tx.ProviderID == "C1" && (tx.Amount != 59.90 || tx.Type != "DEBIT")) || (*tx.ProviderID == "C2" && (tx.Amount != -500 || tx.Type != "CREDIT")) {
			t.Fatalf("card line %s read as %v %s", *tx.ProviderID, tx.Amount, tx.Type)
		}
	}
	// A multipart body without a file part says so.
	var empty bytes.Buffer
	mw = multipart.NewWriter(&empty)
	mw.WriteField("other", "x")
	mw.Close()
	env.DoHeaders(t, "POST", "/items/"+id+"/statements", key, empty.Bytes(), map[string]string{"Content-Type": mw.FormDataContentType()}).
		WantError(400, "INVALID_PARAMETER")
}

// GraphQL takes the same file as a multipart request (graphql-multipart-request-spec) and
// reads the item's accounts and transactions like any other item's; a credential-less
// multipart request is refused before its file is read.
func TestStatementGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql files").APIKey
	id := statementItem(t, env, key, 900)
	file := ofxStatement("20260301", "20260331", "100.00", stmtLine{"20260302", "150.00", "G1", "PIX RECEBIDO ANA"},
		stmtLine{"20260303", "-50.00", "G2", "FARMACIA"})
	send := func(key string) (int, map[string]any) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("operations", `{"query": "mutation($id: UUID!, $f: Upload!) { uploadStatement(itemId: $id, file: $f) { id status } }", "variables": {"id": "`+id+`", "f": null}}`)
		mw.WriteField("map", `{"0": ["variables.f"]}`)
		part, _ := mw.CreateFormFile("0", "extrato.ofx")
		part.Write([]byte(file))
		mw.Close()
		req, _ := http.NewRequest("POST", env.URL+"/graphql", &b)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		if key != "" {
			req.Header.Set("X-API-KEY", key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		body, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		return resp.StatusCode, out
	}
	if status, out := send(""); status != 401 || out["codeDescription"] != "API_KEY_MISSING" {
		t.Fatalf("without a credential: %d %v", status, out)
	}
	// Over the limit: refused from Content-Length, with the code REST gives.
	req, _ := http.NewRequest("POST", env.URL+"/graphql", io.LimitReader(zeros{}, 66<<20))
	req.ContentLength = 66 << 20
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	req.Header.Set("X-API-KEY", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	big, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 413 || !bytes.Contains(big, []byte("STATEMENT_FILE_TOO_LARGE")) {
		t.Fatalf("a 66 MiB multipart request: %d %s", resp.StatusCode, big)
	}
	status, out := send(key)
	if status != 200 || out["errors"] != nil || out["data"].(map[string]any)["uploadStatement"].(map[string]any)["status"] != "UPDATING" {
		t.Fatalf("upload: %d %v", status, out)
	}
	env.WaitItem(t, key, id, testsupport.Settled)
	got := env.GraphQL(t, key, `query($id: UUID!) { accounts(itemId: $id) { results { number type balance
		transactions(first: 10) { nodes { description amount type providerId } } } } }`, map[string]any{"id": id}).OK(t)
	raw, _ := json.Marshal(got)
	var data struct {
		Accounts struct {
			Results []struct {
				Number, Type string
				Balance      float64
				Transactions struct {
					Nodes []struct {
						Description, Type, ProviderID string
						Amount                        float64
					}
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Accounts.Results) != 1 || data.Accounts.Results[0].Number != "12345-6" || data.Accounts.Results[0].Balance != 100 {
		t.Fatalf("accounts %+v", data.Accounts)
	}
	nodes := data.Accounts.Results[0].Transactions.Nodes
	if len(nodes) != 2 {
		t.Fatalf("transactions %+v", nodes)
	}
	for _, n := range nodes {
		if (n.ProviderID == "G1" && (n.Amount != 150 || n.Type != "CREDIT")) || (n.ProviderID == "G2" && (n.Amount != -50 || n.Description != "FARMACIA")) {
			t.Fatalf("transaction %+v", n)
		}
	}
	// The connector says it reads files.
	env.GraphQL(t, key, `{ connector(id: 900) { statementFormat } }`, nil).OK(t)
	var c model.Connector
	env.Do(t, "GET", "/connectors/900", key, nil).Want(200).JSON(&c)
	if c.StatementFormat == nil || *c.StatementFormat != "OFX" || len(c.Credentials) != 0 {
		t.Fatalf("connector 900: %+v", c)
	}
}

// The new user's path of the README with the official Node client: an OFX exported from a
// bank, one upload, and the accounts and transactions read back through the client.
func TestStatementWithPluggySDK(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "extrato.ofx")
	ofx := ofxStatement("20260401", "20260430", "900.00", stmtLine{"20260402", "1000.00", "S1", "SALARIO"},
		stmtLine{"20260410", "-100.00", "S2", "MERCADO BOM PRECO"})
	if err := os.WriteFile(file, []byte(ofx), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runPluggy(t, "pluggy-sdk statements", "statements.js", 2*time.Minute, "STATEMENT_FILE="+file)
	var got struct {
		Account struct {
			Number, Type string
			Balance      float64
		}
		Transactions []struct {
			ID, Type, Description string
			Amount                float64
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Account.Number != "12345-6" || got.Account.Type != "BANK" || got.Account.Balance != 900 || len(got.Transactions) != 2 {
		t.Fatalf("the client read %+v", got)
	}
	for _, tx := range got.Transactions {
		if (tx.ID == "S1" && (tx.Amount != 1000 || tx.Type != "CREDIT")) || (tx.ID == "S2" && (tx.Amount != -100 || tx.Description != "MERCADO BOM PRECO")) {
			t.Fatalf("the client read %+v", tx)
		}
	}
}

// Files uploaded one after the other, the first before the item's creation has ended, wait
// their turn: each is read, in the order it came, and none is refused for arriving while
// the item updates.
func TestStatementUploadsQueue(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "queue").APIKey
	it := createItem(t, env, key, 900, map[string]any{})
	id := it.ID.String()
	var months []string
	for m := 1; m <= 6; m++ {
		day := fmt.Sprintf("2026%02d10", m)
		months = append(months, ofxStatement(fmt.Sprintf("2026%02d01", m), fmt.Sprintf("2026%02d28", m), fmt.Sprintf("%d.00", 100*m),
			stmtLine{day, "100.00", fmt.Sprintf("M%d", m), "PIX RECEBIDO"}))
	}
	for _, f := range months {
		upload(t, env, key, id, f).Want(200)
	}
	done, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if done.Status != model.ItemUpdated {
		t.Fatalf("item ended %s", done.Status)
	}
	accounts := accountsOf(t, env, key, id)
	if len(accounts) != 1 || *accounts[0].Balance != 600 {
		t.Fatalf("accounts %+v", accounts)
	}
	if txs := readAll(t, env, key, "/v2/transactions?accountId="+accounts[0].ID.String(), nil); len(txs) != 6 {
		t.Fatalf("%d transactions, want one from each of the 6 files", len(txs))
	}
	if n := createdCount(t, env, key, id); n != 6 {
		t.Fatalf("transactions/created announced %d", n)
	}
	// At most 24 files wait: the next is refused until they are read.
	slow := createItem(t, env, key, 900, map[string]any{})
	env.WaitItem(t, key, slow.ID.String(), testsupport.Settled)
	env.Exec(t, `UPDATE items SET status = 'UPDATING' WHERE id = $1`, slow.ID)
	for range 24 {
		upload(t, env, key, slow.ID.String(), months[0]).Want(200)
	}
	upload(t, env, key, slow.ID.String(), months[0]).WantError(400, "ITEM_ALREADY_UPDATING")
}
