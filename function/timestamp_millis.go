package function

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// millisTimestampArg brings a TIMESTAMP(p) argument of another precision
// than 3 to TIMESTAMP(3) (TIMESTAMP_LTZ(3)): the time functions' kernels
// read epoch milliseconds, so a finer value is truncated to them first.
func millisTimestampArg(c Compiler, k *Call, i int, _ Param) (err error) {
	tt, ok := k.Args[i].DataType().(*arrow.TimestampType)
	if !ok || tt.Unit == arrow.Millisecond {
		return nil
	}
	k.Args[i], err = c.To(k.Args[i], &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: tt.TimeZone}, k.Pos[i])
	return err
}
