package db

import "testing"

func TestLikeLiteral(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"", ""},
		{"bradesco", "bradesco"},
		{"%", `\%`},
		{"_", `\_`},
		{`\`, `\\`},
		{`50%_off\`, `50\%\_off\\`},
		{`\%`, `\\\%`},
		{"Itaú", "Itaú"},
	}
	for _, c := range cases {
		if got := likeLiteral(c.in); got != c.want {
			t.Errorf("likeLiteral(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
