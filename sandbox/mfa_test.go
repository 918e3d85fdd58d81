package sandbox

import "testing"

func TestRightMFA(t *testing.T) {
	for v, want := range map[string]bool{
		GoodMFA: true, "654321": true, "222222": true, "000000": true,
		WrongMFA: false, "": false, "12345": false, "1234567": false, "12a456": false, "１２３４５６": false,
	} {
		if got := rightMFA(v); got != want {
			t.Errorf("rightMFA(%q) = %v, want %v", v, got, want)
		}
	}
}
