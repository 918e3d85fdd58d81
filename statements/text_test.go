package statements

import (
	"errors"
	"testing"
)

func TestParseAmount(t *testing.T) {
	cases := []struct {
		in    string
		comma bool
		want  int64
		ok    bool
	}{
		{"1234.56", false, 123456, true},
		{"-1234.5", false, -123450, true},
		{"1,234.56", false, 123456, true},
		{"1.234,56", true, 123456, true},
		{"-0,00", true, 0, true},
		{"-0.00", false, 0, true},
		{"R$ 1.234,56", true, 123456, true},
		{"-R$ 10,00", true, -1000, true},
		{"R$ -10,00", true, -1000, true},
		{"(12,30)", true, -1230, true},
		{"+7", false, 700, true},
		{".5", false, 50, true},
		{"1.2300", false, 123, true},
		{"1.234", false, 0, false},    // a dot decimal of three places is no centavo amount
		{"1.234", true, 123400, true}, // Brazilian: the dot groups thousands
		{"1.2345", false, 0, false},
		{"12,3,4", true, 0, false},
		{"1.23.4", true, 0, false},
		{"abc", false, 0, false},
		{"", false, 0, false},
		{"-", false, 0, false},
		{"1e5", false, 0, false},
		{"9999999999999999", false, 0, false},
	}
	for _, c := range cases {
		got, ok := ParseAmount(c.in, c.comma)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseAmount(%q, %v) = %d, %v; want %d, %v", c.in, c.comma, got, ok, c.want, c.ok)
		}
	}
}

func TestText(t *testing.T) {
	got, err := Text([]byte("\xef\xbb\xbfCafé"))
	if err != nil || got != "Café" {
		t.Errorf("UTF-8 with BOM: %q, %v", got, err)
	}
	got, err = Text([]byte("Caf\xe9 P\xe3o"))
	if err != nil || got != "Café Pão" {
		t.Errorf("Latin-1: %q, %v", got, err)
	}
	got, err = Text([]byte("Jo\xe3o \x96 \x93Caf\xe9\x94 \x80 5 \x81"))
	if err != nil || got != "João – “Café” € 5 \u0081" {
		t.Errorf("Windows-1252: %q, %v", got, err)
	}
	_, err = Text([]byte("a\nb\n\x00"))
	var se *Error
	if !errors.As(err, &se) || se.Line != 3 {
		t.Errorf("NUL: %v", err)
	}
}
