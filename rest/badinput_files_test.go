package rest_test

import (
	"bytes"
	"strings"
)

// The files the bad-input scan sends a route that reads a statement file as its body.

// scanStatement is a small good OFX file.
var scanStatement = []byte("OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0260" +
	"<BRANCHID>0001<ACCTID>1-2<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260105" +
	"<TRNAMT>-1.00<FITID>X1<MEMO>PADARIA</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n")

// scanFiles breaks a good file: bad bytes in its text, cut anywhere, tags that never end,
// values of every hostile kind in place of the description.
func scanFiles(good []byte) [][]byte {
	var out [][]byte
	for _, bad := range []string{"\x00", "\xff\xfe", "\xef\xbb\xbf", "\r", "<", "</OFX>", "&#0;", "&amp", "<!ENTITY x \"y\">",
		strings.Repeat("<A>", 5000), strings.Repeat("9", 4000), "-0.00", "1e309", "'; DROP TABLE transactions; --", "${jndi:ldap://x}"} {
		out = append(out, bytes.Replace(good, []byte("PADARIA"), []byte(bad), 1), bytes.Replace(good, []byte("-1.00"), []byte(bad), 1),
			bytes.Replace(good, []byte("20260105"), []byte(bad), 1))
	}
	for cut := 1; cut < len(good); cut += 17 {
		out = append(out, good[:cut])
	}
	return out
}
