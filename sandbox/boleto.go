package sandbox

import (
	"math"
	"time"

	"ponte/brdocs"
)

// The boletos of the generated history are real FEBRABAN codes (brdocs), so paid boletos
// pass any validation a client runs on them.

// bankBoleto is the barcode and the printed line of a bank boleto; free is the 25-digit
// field the issuing bank defines.
func bankBoleto(compe string, due time.Time, cents int64, free string) (barcode, line string) {
	c := brdocs.BoletoCode{Bank: compe, Factor: brdocs.DueFactor(due), Cents: cents, FreeField: free}
	return c.Barcode(), c.Line()
}

// utilityBoleto is the barcode and the printed line of a utility bill of a value in reais
// checked by modulo 10 (value identifier 6): segment 2 sanitation, 3 energy and gas, 4
// telecom; company is the 4-digit code FEBRABAN gives the biller.
func utilityBoleto(segment byte, cents int64, company, free string) (barcode, line string) {
	u := brdocs.UtilityBoleto{Segment: segment, ValueID: '6', Value: cents, Company: company, FreeField: free}
	return u.Barcode(), u.Line()
}

// centavos is a generated amount (reais, already rounded to the cent) in centavos.
func centavos(reais float64) int64 { return int64(math.Round(reais * 100)) }
