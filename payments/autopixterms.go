package payments

import (
	"fmt"
	"time"

	"ponte/model"
)

// The terms an automatic PIX authorization holds every charge to (Pix Automático):
//
//   - at most one charge per period of the authorized interval. Periods are calendar
//     periods, as the Central Bank's Pix Automático counts them: the week (Monday to
//     Sunday), month, quarter (January, April, July, October), semester (January, July) or
//     year a charge's date falls in. A canceled charge frees its period; a failed one keeps
//     it, and its retry stays in it even when the retry's date falls in the next period.
//     The first payment, made with the authorization, is outside the periods;
//   - the amount is the fixed amount, or lies within the minimum and maximum;
//   - the date lies within startDate and expiresAt, and a retry's within the retry window
//     (maxRetryDays after the charge's original date, counted from that date however often
//     it is retried).

// periodStart is the first day of the calendar period of interval that day falls in.
func periodStart(interval string, day time.Time) time.Time {
	y, m, d := day.Date()
	switch interval {
	case "WEEKLY":
		monday := (int(day.Weekday()) + 6) % 7 // days since Monday
		return time.Date(y, m, d-monday, 0, 0, 0, 0, time.UTC)
	case "QUARTERLY":
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case "SEMESTER":
		return time.Date(y, (m-1)/6*6+1, 1, 0, 0, 0, 0, time.UTC)
	case "YEARLY":
		return time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC)
	default: // MONTHLY
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	}
}

// periodEnd is the last day of the period that starts on start.
func periodEnd(interval string, start time.Time) time.Time {
	switch interval {
	case "WEEKLY":
		return start.AddDate(0, 0, 6)
	case "QUARTERLY":
		return start.AddDate(0, 3, -1)
	case "SEMESTER":
		return start.AddDate(0, 6, -1)
	case "YEARLY":
		return start.AddDate(1, 0, -1)
	default:
		return start.AddDate(0, 1, -1)
	}
}

// periodName is a period as messages show it: "MONTHLY period 2026-03-01 to 2026-03-31".
func periodName(interval string, start time.Time) string {
	return fmt.Sprintf("%s period %s to %s", interval, start.Format(time.DateOnly), periodEnd(interval, start).Format(time.DateOnly))
}

// checkChargeAmount holds an amount (already checked to have at most two decimals) to the
// terms, in cents.
func checkChargeAmount(terms *model.AutomaticPix, amount float64) error {
	got := cents(amount)
	fail := func(format string, args ...any) error {
		return model.Fail(model.CodeAutomaticPixAmountOutOfTerms, "automatic PIX: "+format, args...)
	}
	switch {
	case terms.FixedAmount != nil && got != cents(*terms.FixedAmount):
		return fail("the authorization is for a fixed amount of %.2f (got %.2f).", *terms.FixedAmount, amount)
	case terms.MinimumVariableAmount != nil && got < cents(*terms.MinimumVariableAmount):
		return fail("amount %.2f is below the authorization's minimum of %.2f.", amount, *terms.MinimumVariableAmount)
	case terms.MaximumVariableAmount != nil && got > cents(*terms.MaximumVariableAmount):
		return fail("amount %.2f is above the authorization's maximum of %.2f.", amount, *terms.MaximumVariableAmount)
	}
	return nil
}

// checkChargeDate holds a charge's date to the authorization's startDate and expiresAt
// (both stored checked as YYYY-MM-DD).
func checkChargeDate(terms *model.AutomaticPix, date time.Time) error {
	fail := func(format string, args ...any) error {
		return model.Fail(model.CodeAutomaticPixDateOutOfTerms, "automatic PIX: "+format, args...)
	}
	if start, _ := time.Parse(time.DateOnly, terms.StartDate); date.Before(start) {
		return fail("date %s is before the authorization's startDate %s.", date.Format(time.DateOnly), terms.StartDate)
	}
	if terms.ExpiresAt != nil {
		if exp, _ := time.Parse(time.DateOnly, *terms.ExpiresAt); date.After(exp) {
			return fail("date %s is after the authorization expires (%s).", date.Format(time.DateOnly), *terms.ExpiresAt)
		}
	}
	return nil
}

// checkRetryDate holds a retry's date to its window: after the charge's original date and
// at most maxRetryDays later, and within the terms' dates.
func checkRetryDate(terms *model.AutomaticPix, original, date time.Time) error {
	if !date.After(original) || date.After(original.AddDate(0, 0, maxRetryDays)) {
		return model.Fail(model.CodeAutomaticPixDateOutOfTerms, "automatic PIX: a retry's date must be within the %d days after the charge's original date %s (got %s).",
			maxRetryDays, original.Format(time.DateOnly), date.Format(time.DateOnly))
	}
	return checkChargeDate(terms, date)
}
