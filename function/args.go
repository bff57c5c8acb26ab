package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// The argument types most functions share.
var (
	ArgAny = ArgType{Name: "any", Sample: "i"}
	// ArgString: a STRING (a NULL literal becomes one).
	ArgString = ArgType{Name: "STRING", Sample: "s", Check: func(c Compiler, k *Call, i int, _ Param) (err error) {
		k.Args[i], err = c.StringArg(k.Args[i], k.Pos[i], k.Name)
		return err
	}}
	// ArgNumber: a number (a NULL literal becomes an INT NULL).
	ArgNumber = ArgType{Name: "NUMERIC", Sample: "d", Check: func(c Compiler, k *Call, i int, _ Param) (err error) {
		k.Args[i], err = c.NumberArg(k.Args[i], k.Pos[i], k.Name)
		return err
	}}
	// ArgDouble: a number, computed as a DOUBLE.
	ArgDouble = ArgType{Name: "NUMERIC", Sample: "i", Check: func(c Compiler, k *Call, i int, _ Param) error {
		x, err := c.NumberArg(k.Args[i], k.Pos[i], k.Name)
		if err != nil {
			return err
		}
		k.Args[i], err = c.To(x, tDouble, k.Pos[i])
		return err
	}}
	// ArgInteger: an integer, computed as a BIGINT; the error names the
	// parameter.
	ArgInteger = ArgType{Name: "INTEGER", Sample: "i", Check: func(c Compiler, k *Call, i int, p Param) (err error) {
		dt := k.Args[i].DataType()
		if !IsInteger(dt) && !IsNull(dt) {
			return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects an integer %s, got %s", k.F.Name, p.Name, TypeName(dt))
		}
		k.Args[i], err = c.To(k.Args[i], tBigint, k.Pos[i])
		return err
	}}
	// ArgBoolean: a BOOLEAN (a NULL literal becomes one).
	ArgBoolean = ArgType{Name: "BOOLEAN", Sample: "flag", Check: func(c Compiler, k *Call, i int, _ Param) (err error) {
		k.Args[i], err = c.BooleanArg(k.Args[i], k.Pos[i], k.Name)
		return err
	}}
	// ArgFormat: a constant STRING, read by the kernel (FormatArg).
	ArgFormat = ArgType{Name: "STRING constant", Sample: "'yyyy-MM-dd HH:mm:ss'"}
)

// Types the kernels produce and convert to.
var (
	tBigint = arrow.PrimitiveTypes.Int64
	tInt    = arrow.PrimitiveTypes.Int32
	tBool   = arrow.FixedWidthTypes.Boolean
	tDouble = arrow.PrimitiveTypes.Float64
	tString = arrow.BinaryTypes.String
	tDate   = arrow.FixedWidthTypes.Date32
	tTime   = arrow.FixedWidthTypes.Time32s
	tNull   = arrow.Null
	tTS     = &arrow.TimestampType{Unit: arrow.Millisecond}
	tLTZ    = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}
)

const msPerDay = int64(86_400_000)

// TypeName is a type's SQL name for errors, NULL for an untyped NULL.
func TypeName(dt arrow.DataType) string {
	if dt.ID() == arrow.NULL {
		return "NULL"
	}
	return format.SQLTypeName(dt)
}

// IsNull reports the type of an untyped NULL literal.
func IsNull(dt arrow.DataType) bool { return dt.ID() == arrow.NULL }

// IsInteger reports TINYINT, SMALLINT, INT and BIGINT.
func IsInteger(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

// IsString reports STRING.
func IsString(dt arrow.DataType) bool { return dt.ID() == arrow.STRING }

// IsTemporal reports DATE and TIMESTAMP (with or without a zone).
func IsTemporal(dt arrow.DataType) bool { return dt.ID() == arrow.TIMESTAMP || dt.ID() == arrow.DATE32 }
