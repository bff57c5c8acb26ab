package expr

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// ErrStringLimit is returned when the strings an expression computes for
// one batch would pass MaxStringColumnBytes. Arrow's STRING column
// addresses its bytes with 32-bit offsets; past the limit they would wrap
// and a later read would panic, so the expression stops first.
var ErrStringLimit = errors.New("string column limit exceeded")

// MaxStringColumnBytes is the most string data one column of a batch holds.
const MaxStringColumnBytes = math.MaxInt32

// fitsString tells whether n more bytes fit in b's column.
func fitsString(b *array.StringBuilder, n int) bool {
	return int64(b.DataLen())+int64(n) <= MaxStringColumnBytes
}

// stringLimitError names the expression and the batch that passed the limit.
func stringLimitError(what string, rows int) error {
	return fmt.Errorf("%w: the values of %s over a batch of %d rows pass 2 GiB, the most string data one column holds; make the strings shorter or the batches smaller",
		ErrStringLimit, what, rows)
}
