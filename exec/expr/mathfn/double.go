package mathfn

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
)

// Double is a function of one or two DOUBLEs (the registry converts the
// arguments), chosen by Name; NULL in gives NULL out.
type Double struct {
	Name string
	Args []expr.Expr
}

func (e *Double) DataType() arrow.DataType { return arrow.PrimitiveTypes.Float64 }
func (e *Double) Children() []expr.Expr    { return e.Args }
func (e *Double) String() string           { return call(e.Name, e.Args) }

// unaryDouble are the one-argument functions, as Java's Math computes them.
var unaryDouble = map[string]func(float64) float64{
	"LOG2":    func(x float64) float64 { return math.Log(x) / math.Log(2) }, // Flink: Math.log(x) / Math.log(2)
	"SIN":     math.Sin,
	"SINH":    math.Sinh,
	"COS":     math.Cos,
	"COSH":    math.Cosh,
	"TAN":     math.Tan,
	"TANH":    math.Tanh,
	"COT":     func(x float64) float64 { return 1 / math.Tan(x) },
	"ASIN":    math.Asin,
	"ACOS":    math.Acos,
	"ATAN":    math.Atan,
	"DEGREES": func(x float64) float64 { return x * (180 / math.Pi) }, // Math.toDegrees
	"RADIANS": func(x float64) float64 { return x / 180 * math.Pi },   // Math.toRadians
	"LOG":     math.Log,
}

func (e *Double) Eval(rec arrow.RecordBatch, mem memory.Allocator) (arrow.Array, error) {
	n := int(rec.NumRows())
	x, err := e.Args[0].Eval(rec, mem)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	xs := expr.ValuesOf[float64](x)
	vb, out := expr.NewValues[float64](mem, n)
	if len(e.Args) == 1 {
		f := unaryDouble[e.Name]
		for i, v := range xs {
			out[i] = f(v)
		}
		validity, nulls := expr.AndValidity(mem, n, x)
		return expr.NewArray(arrow.PrimitiveTypes.Float64, n, validity, nulls, vb), nil
	}
	y, err := e.Args[1].Eval(rec, mem)
	if err != nil {
		vb.Release()
		return nil, err
	}
	defer y.Release()
	ys := expr.ValuesOf[float64](y)
	switch e.Name {
	case "ATAN2":
		for i := range out {
			out[i] = math.Atan2(xs[i], ys[i])
		}
	case "LOG": // LOG(base, x), as Flink: Math.log(x) / Math.log(base)
		for i := range out {
			out[i] = math.Log(ys[i]) / math.Log(xs[i])
		}
	}
	validity, nulls := expr.AndValidity(mem, n, x, y)
	return expr.NewArray(arrow.PrimitiveTypes.Float64, n, validity, nulls, vb), nil
}

func call(name string, args []expr.Expr) string {
	s := name + "("
	for i, a := range args {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	return s + ")"
}
