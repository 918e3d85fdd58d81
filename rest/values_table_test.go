package rest_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestEveryDocumentedValueTable keeps docs/sandbox.md's "Every documented value" table equal
// to the interface document's lists: a row per documented value, under its own field, and no
// row for a value the document does not list there.
func TestEveryDocumentedValueTable(t *testing.T) {
	t.Parallel()
	doc := readInterfaceDoc(t)
	rows := sandboxValuesTable(t)
	for _, s := range documentedSets {
		values := documentedValues(t, doc, s)
		for _, v := range values {
			if !slices.Contains(rows, [2]string{s.name, v}) {
				t.Errorf("docs/sandbox.md \"Every documented value\" has no row for %s %s", s.name, v)
			}
		}
		for _, r := range rows {
			if r[0] == s.name && !slices.Contains(values, r[1]) {
				t.Errorf("docs/sandbox.md \"Every documented value\" has a row for %s %s, which the interface does not list", r[0], r[1])
			}
		}
	}
	for _, r := range rows {
		if !slices.ContainsFunc(documentedSets, func(s documentedSet) bool { return s.name == r[0] }) {
			t.Errorf("docs/sandbox.md \"Every documented value\": %q is no field the tests walk", r[0])
		}
	}
	for v, why := range cannotOccur {
		if !strings.Contains(string(mustRead(t, "../docs/sandbox.md")), why) {
			t.Errorf("docs/sandbox.md does not give the reason %s cannot occur: %q", v, why)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// sandboxValuesTable reads the rows under "## Every documented value": each value named in
// backquotes in the first column, with the field of the second.
func sandboxValuesTable(t *testing.T) [][2]string {
	t.Helper()
	_, sec, ok := strings.Cut(string(mustRead(t, "../docs/sandbox.md")), "\n## Every documented value\n")
	if !ok {
		t.Fatal(`docs/sandbox.md has no "## Every documented value" section`)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	var out [][2]string
	for _, line := range strings.Split(sec, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "value" {
			continue
		}
		for _, v := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			out = append(out, [2]string{strings.TrimSpace(cells[2]), v[1]})
		}
	}
	if len(out) == 0 {
		t.Fatal("docs/sandbox.md's \"Every documented value\" table has no rows")
	}
	return out
}
