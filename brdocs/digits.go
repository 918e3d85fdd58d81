package brdocs

// The check-digit rules FEBRABAN and the Receita Federal share. Each takes a string of
// ASCII digits; callers check the alphabet first.

// Mod10 is the modulo-10 check digit of boleto fields: weights 2, 1, 2, ... from the
// right, the digits of each product added, and 10 minus the remainder (10 written as 0).
func Mod10(digits string) int {
	sum, w := 0, 2
	for i := len(digits) - 1; i >= 0; i-- {
		p := int(digits[i]-'0') * w
		sum += p/10 + p%10
		w = 3 - w
	}
	return (10 - sum%10) % 10
}

// mod11Remainder is the remainder by 11 of the digits weighted 2 to 9 from the right, the
// weights starting again at 2 after 9.
func mod11Remainder(digits string) int {
	sum, w := 0, 2
	for i := len(digits) - 1; i >= 0; i-- {
		sum += int(digits[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	return sum % 11
}

// Mod11 is the common bank rule: 11 minus the remainder of mod11Remainder, where 10 and
// 11 are written as 0. Utility bills of value identifier 8 or 9 use it, and banks use it
// for the nosso número.
func Mod11(digits string) int {
	if dv := 11 - mod11Remainder(digits); dv < 10 {
		return dv
	}
	return 0
}

// onlyDigits reports whether s is non-empty and all ASCII digits.
func onlyDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func digit(d int) byte { return byte('0' + d) }
