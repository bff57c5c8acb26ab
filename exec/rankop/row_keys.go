package rankop

import "github.com/apache/arrow-go/v18/arrow"

// RowKeys encodes columns of a row as one byte string, equal for two rows
// exactly when their values are (NULLs equal): the key of an operator
// keyed by whole rows (exec/setop).
type RowKeys struct{ enc keyEncoder }

// NewRowKeys encodes the columns cols of a record.
func NewRowKeys(cols []int) RowKeys {
	var k RowKeys
	for _, c := range cols {
		k.enc.keys = append(k.enc.keys, SortKey{Index: c})
	}
	return k
}

// Encode writes the key of each row of rec into keys[row], reusing its
// buffer; keys has at least one entry per row.
func (k RowKeys) Encode(rec arrow.RecordBatch, keys [][]byte) { k.enc.encode(rec, keys) }

// CheckKeyType says whether a column of type dt can be in a key.
func CheckKeyType(dt arrow.DataType) error { return checkSortable(dt) }
