//go:build browser

package rest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/model"
)

// statementOFX is an OFX 1.6 (SGML) bank statement as a bank exports it: account
// 0341/1234/56789-0 with three transactions in January 2024 and its balance.
const statementOFX = "OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:160\r\nSECURITY:NONE\r\nENCODING:USASCII\r\n" +
	"CHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n" + `<OFX>
<SIGNONMSGSRSV1>
<SONRS>
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<DTSERVER>20240205093000[-3:BRT]
<LANGUAGE>POR
</SONRS>
</SIGNONMSGSRSV1>
<BANKMSGSRSV1>
<STMTTRNRS>
<TRNUID>1001
<STATUS>
<CODE>0
<SEVERITY>INFO
</STATUS>
<STMTRS>
<CURDEF>BRL
<BANKACCTFROM>
<BANKID>0341
<BRANCHID>1234
<ACCTID>56789-0
<ACCTTYPE>CHECKING
</BANKACCTFROM>
<BANKTRANLIST>
<DTSTART>20240101
<DTEND>20240131
<STMTTRN>
<TRNTYPE>DEBIT
<DTPOSTED>20240104
<TRNAMT>-45.90
<FITID>00002
<NAME>PADARIA PAO QUENTE
</STMTTRN>
<STMTTRN>
<TRNTYPE>ATM
<DTPOSTED>20240120
<TRNAMT>-300.00
<FITID>00003
<NAME>SAQUE 24H
</STMTTRN>
<STMTTRN>
<TRNTYPE>CREDIT
<DTPOSTED>20240125103000[-3:BRT]
<TRNAMT>1500.00
<FITID>00004
<NAME>PIX RECEBIDO
<MEMO>MARIA DA SILVA
</STMTTRN>
</BANKTRANLIST>
<LEDGERBAL>
<BALAMT>1520.35
<DTASOF>20240131120000[-3:BRT]
</LEDGERBAL>
</STMTRS>
</STMTTRNRS>
</BANKMSGSRSV1>
</OFX>
`

// notOFX is what a user may pick by mistake: a spreadsheet's CSV, named as if it were OFX.
const notOFX = "Data;Descrição;Valor\r\n04/01/2024;PADARIA PAO QUENTE;-45,90\r\n20/01/2024;SAQUE 24H;-300,00\r\n"

// writeFile writes content to name in a folder of the test's, as the user's download.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// upload picks path in the file step's picker and sends the form from the keyboard.
func (r *connectRig) upload(t *testing.T, path string) {
	t.Helper()
	r.do(t, r.popup, chromedp.SetUploadFiles(chromedp.ID("f-file"), []string{path}),
		chromedp.Focus(chromedp.CSS(`#statement button[type="submit"]`)), chromedp.KeyEvent(kb.Enter))
}

// pendingItem is the item the page made and keeps in the tab's storage (no message tells
// the application of it before the connection ends).
func (r *connectRig) pendingItem(t *testing.T) string {
	t.Helper()
	id, _ := r.eval(t, r.popup, `(JSON.parse(sessionStorage.getItem("ponte-connect")) || {}).itemId || ""`).(string)
	return id
}

// statementData reads, through the API, the accounts of item and the transactions of each.
func (r *connectRig) statementData(t *testing.T, item string) (accounts []map[string]any, transactions map[string][]map[string]any) {
	t.Helper()
	var page struct{ Results []map[string]any }
	r.env.Do(t, "GET", "/accounts?itemId="+item, r.client.APIKey, nil).Want(200).JSON(&page)
	transactions = map[string][]map[string]any{}
	for _, a := range page.Results {
		id := a["id"].(string)
		var tx struct{ Results []map[string]any }
		r.env.Do(t, "GET", "/v2/transactions?accountId="+id, r.client.APIKey, nil).Want(200).JSON(&tx)
		transactions[id] = tx.Results
	}
	return page.Results, transactions
}

// itemCount is how many items the application holds (GET /v2/items, which the operator
// enables per application).
func (r *connectRig) itemCount(t *testing.T) int {
	t.Helper()
	r.env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, r.client.ID)
	var page struct{ Results []map[string]any }
	r.env.Do(t, "GET", "/v2/items", r.client.APIKey, nil).Want(200).JSON(&page)
	return len(page.Results)
}

// checkJanuary checks the item holds the statement's account and its three transactions.
func (r *connectRig) checkJanuary(t *testing.T, item string) {
	t.Helper()
	accounts, transactions := r.statementData(t, item)
	if len(accounts) != 1 {
		t.Fatalf("item %s has %d accounts, want the statement's one: %v", item, len(accounts), accounts)
	}
	a := accounts[0]
	if !strings.Contains(fmt.Sprint(a["number"]), "56789") || a["balance"] != 1520.35 || a["currencyCode"] != "BRL" || a["type"] != "BANK" {
		t.Fatalf("account %v", a)
	}
	var got []string
	for _, tx := range transactions[a["id"].(string)] {
		got = append(got, fmt.Sprint(tx["amount"], " ", tx["description"]))
	}
	want := map[string]bool{"-45.9 PADARIA PAO QUENTE": true, "-300 SAQUE 24H": true, "1500 PIX RECEBIDO - MARIA DA SILVA": true}
	if len(got) != 3 {
		t.Fatalf("transactions %q, want the statement's three", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Fatalf("transactions %q, want %v", got, want)
		}
	}
}

// TestConnectStatementFile: the end user picks the OFX connector, which asks for a file
// instead of credentials, uploads the statement their bank exported, and the application
// hears of the success and reads the account and its three transactions.
func TestConnectStatementFile(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "ofx", 900)
	r.step(t, "file")
	got := r.eval(t, r.popup, `[document.getElementById("title-file").textContent, document.querySelector("label[for=f-file]").textContent,
		document.getElementById("f-file").accept, document.getElementById("file-intro").textContent,
		document.querySelector(".chosen img").getAttribute("src"), document.querySelectorAll("#step-file input:not([type=file])").length]`)
	want := `[Conectar Extrato OFX (qualquer banco) Arquivo do extrato (OFX) .ofx,.qfx Exporte o extrato do seu banco em OFX e envie aqui. /connect/assets/logo-statement.svg 0]`
	if fmt.Sprint(got) != want {
		t.Fatalf("file step %v\nwant %s", got, want)
	}
	r.upload(t, writeFile(t, "extrato-janeiro.ofx", statementOFX))
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["status"] != "UPDATED" {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
	id := m.Data.Item["id"].(string)
	if conn, _ := m.Data.Item["connector"].(map[string]any); conn["id"] != float64(900) {
		t.Fatalf("success item %+v", m.Data.Item)
	}
	r.checkJanuary(t, id)
}

// TestConnectStatementFileRefused: the form asks for a file before sending anything; a
// file that is not OFX is refused with the API's message naming the line, announced, and
// nothing is stored; the user then picks the right file, which goes to the same item (in
// English here, where the page's words are English too).
func TestConnectStatementFileRefused(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect?lang=en&connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "ofx", 900)
	r.step(t, "file")
	r.do(t, r.popup, chromedp.Focus(chromedp.CSS(`#statement button[type="submit"]`)), chromedp.KeyEvent(kb.Enter))
	r.until(t, r.popup, `document.getElementById("f-file").getAttribute("aria-invalid") === "true"`)
	if got := r.eval(t, r.popup, `[document.getElementById("f-file-error").textContent, document.getElementById("alert").textContent,
		document.activeElement.id]`); fmt.Sprint(got) != "[Choose the statement file. Choose the statement file. f-file]" {
		t.Fatalf("submitted with no file: %v", got)
	}
	if n := r.itemCount(t); n != 0 {
		t.Fatalf("%d items before any file was sent", n)
	}

	r.upload(t, writeFile(t, "extrato.ofx", notOFX))
	r.until(t, r.popup, `document.getElementById("form-error") !== null`)
	r.until(t, r.popup, `document.activeElement.id === "title-file"`)
	box := r.eval(t, r.popup, `document.getElementById("form-error").textContent`).(string)
	if !strings.HasPrefix(box, "This file was not accepted. Choose another file. The statement file cannot be read: line 1: this is not an OFX file") {
		t.Fatalf("refusal reads %q", box)
	}
	if said := r.eval(t, r.popup, `document.getElementById("alert").textContent`); said != box {
		t.Fatalf("announced %q, shown %q", said, box)
	}
	t.Logf("refused: %s", box)
	r.screenshot(t, r.popup, "file-refused")
	item := r.pendingItem(t)
	if item == "" || r.itemCount(t) != 1 {
		t.Fatalf("after the refused file: item %q, %d items", item, r.itemCount(t))
	}
	if accounts, _ := r.statementData(t, item); len(accounts) != 0 {
		t.Fatalf("the refused file stored accounts %v", accounts)
	}
	if it := r.env.Item(t, r.client.APIKey, item); it.Status != model.ItemUpdated {
		t.Fatalf("item after the refused file: %s", it.Status)
	}

	r.upload(t, writeFile(t, "statement.ofx", statementOFX))
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["id"] != item {
		t.Fatalf("message %+v, want success of item %s", m.Data, item)
	}
	r.step(t, "success")
	if n := r.itemCount(t); n != 1 {
		t.Fatalf("%d items: the second file made another", n)
	}
	r.checkJanuary(t, item)
}

// TestConnectStatementFileUpdate: a token issued for an existing statement-file item opens
// its file step directly, and the file goes to that item. The item's first execution may
// still be running when the page opens: the page waits for it to end before sending.
func TestConnectStatementFileUpdate(t *testing.T) {
	r := newConnectRig(t)
	var it model.Item
	r.env.Do(t, "POST", "/items", r.client.APIKey, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).JSON(&it)
	body := r.options(nil)
	body["itemId"] = it.ID.String()
	r.open(t, "/connect#connect_token="+r.token(t, body))
	r.step(t, "file")
	if got := r.eval(t, r.popup, `[document.getElementById("title-file").textContent, document.querySelectorAll("#step-file button.secondary").length]`); fmt.Sprint(got) != "[Atualizar conexão com Extrato OFX (qualquer banco) 0]" {
		t.Fatalf("file step of an existing item: %v", got)
	}
	r.upload(t, writeFile(t, "extrato.ofx", statementOFX))
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["id"] != it.ID.String() {
		t.Fatalf("message %+v, want success of item %s", m.Data, it.ID)
	}
	r.step(t, "success")
	r.checkJanuary(t, it.ID.String())
	if got := r.env.Item(t, r.client.APIKey, it.ID.String()); got.Status != model.ItemUpdated {
		t.Fatalf("item %s", got.Status)
	}
}
