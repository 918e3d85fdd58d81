package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Every payment error detail code declared here is documented where applications read the
// codes they branch on.
func TestPaymentErrorsDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "paymenterrors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/payments.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if lit, ok := node.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			code, _ := strconv.Unquote(lit.Value)
			n++
			if !strings.Contains(string(doc), "`"+code+"`") {
				t.Errorf("docs/payments.md does not name the payment error detail %s", code)
			}
		}
		return true
	})
	if n < 7 {
		t.Fatalf("read %d codes from paymenterrors.go", n)
	}
}
