package model

// The codes a payment's errorDetail carries (PaymentErrorDetail.Code) besides the error
// codes of codes.go and the statuses an attempt ended in: what the institution, the payer
// or the application did. Declared once, so an application can branch on them and a test
// can name them.
const (
	PaymentErrorInsufficientFunds = "INSUFFICIENT_FUNDS" // the payer's account has not enough balance
	PaymentErrorLimitExceeded     = "LIMIT_EXCEEDED"     // above the payer account's transaction limit
	PaymentErrorRejectedByUser    = "REJECTED_BY_USER"   // the payer (or a second signer) rejected it
	PaymentErrorSettlementFailed  = "SETTLEMENT_FAILED"  // the institution could not settle it
	PaymentErrorAccountBlocked    = "ACCOUNT_BLOCKED"    // the payer's account is blocked
	PaymentErrorRefundRejected    = "REFUND_REJECTED"    // the institution refused a refund
	PaymentErrorCanceled          = "CANCELED"           // the application deleted the request
)
