package model

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"pgregory.net/rapid"
)

// fill gives every exported field of v (recursively, pointers nil or set) a drawn value,
// by reflection, so a field added to Transaction or the types it holds is drawn too.
func fill(t *rapid.T, v reflect.Value, path string) {
	switch v.Interface().(type) {
	case Time:
		// From before year 0 to after 9999: the years time's layout writes otherwise.
		s := rapid.OneOf(rapid.Int64Range(-62135596800, 253402300799), rapid.Int64Range(-70000000000, 260000000000)).Draw(t, path+".s")
		nano := rapid.Int64Range(0, 999999999).Draw(t, path+".ns")
		zone := time.FixedZone("z", rapid.IntRange(-14, 14).Draw(t, path+".zone")*3600)
		v.Set(reflect.ValueOf(Time{time.Unix(s, nano).In(zone)}))
		return
	case uuid.UUID:
		var id uuid.UUID
		copy(id[:], rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, path))
		v.Set(reflect.ValueOf(id))
		return
	case JSONDocument:
		return // not part of the document (json:"-")
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(rapid.OneOf(rapid.String(), rapid.StringMatching(`[A-Z0-9 ]{0,30}`),
			rapid.SampledFrom([]string{"", "<a&b>", "\u2028x\u2029", "\xff\xfe", "tab\there", `q"\`, "ação é"})).Draw(t, path))
	case reflect.Int:
		v.SetInt(int64(rapid.Int().Draw(t, path)))
	case reflect.Float64:
		v.SetFloat(rapid.OneOf(rapid.Float64(), rapid.Float64Range(-1e7, 1e7),
			rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e-7, 1e21, 123456789e-20, -2.5e-9, 12.34, 1e20})).Draw(t, path))
	case reflect.Pointer:
		if rapid.Bool().Draw(t, path+"?") {
			p := reflect.New(v.Type().Elem())
			fill(t, p.Elem(), path)
			v.Set(p)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				fill(t, v.Field(i), path+"."+f.Name)
			}
		}
	default:
		t.Fatalf("%s: no drawing of kind %s; teach fill and AppendJSON the new field", path, v.Kind())
	}
}

func TestTransactionAppendJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tx Transaction
		fill(t, reflect.ValueOf(&tx).Elem(), "tx")
		want, werr := json.Marshal(&tx)
		prefix := []byte("prefix")
		got, gerr := tx.AppendJSON(prefix)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("json.Marshal error %v, AppendJSON error %v", werr, gerr)
		}
		if werr != nil {
			return
		}
		if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
			t.Fatalf("AppendJSON:\n%s\njson.Marshal:\n%s", got[len(prefix):], want)
		}
	})
}

func TestTransactionAppendJSONRefusesNaN(t *testing.T) {
	tx := Transaction{Amount: math.NaN()}
	if _, err := tx.AppendJSON(nil); err == nil {
		t.Fatal("AppendJSON of a NaN amount gave no error; json.Marshal refuses it")
	}
}

// TestTimeMarshalJSONIsTheLayout checks the digit-by-digit timestamp writer against
// time's own formatting of TimeLayout (AppendJSON's test compares with json.Marshal,
// which writes timestamps with the same writer).
func TestTimeMarshalJSONIsTheLayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.Int64Range(-62135596800, 253402300799), rapid.Int64Range(-70000000000, 260000000000)).Draw(t, "s")
		zone := time.FixedZone("z", rapid.IntRange(-14*60, 14*60).Draw(t, "zone")*60)
		v := Time{time.Unix(s, rapid.Int64Range(0, 999999999).Draw(t, "ns")).In(zone)}
		got, _ := v.MarshalJSON()
		if want := `"` + v.UTC().Format(TimeLayout) + `"`; string(got) != want {
			t.Fatalf("MarshalJSON %s, layout %s", got, want)
		}
	})
}

// TestFoldTextShortcut checks that a description FoldText returns as it is would fold to
// itself the long way.
func TestFoldTextShortcut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringMatching(`[A-Za-z0-9 \t\n\v\f\r*]{0,20}`),
			rapid.SampledFrom([]string{"", " ", "A", "A  B", "PIX ENVIADO", "pix", "AÇÃO", "A\u00a0B", "A\u0085", "A\tB"})).Draw(t, "s")
		if got, want := FoldText(s), strings.Join(strings.Fields(strings.ToUpper(foldAccents.Replace(s))), " "); got != want {
			t.Fatalf("FoldText(%q) = %q, the long way %q", s, got, want)
		}
	})
}
