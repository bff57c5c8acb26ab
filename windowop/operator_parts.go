package windowop

import "github.com/apache/arrow-go/v18/arrow"

// keyTableOf is the key table of the input columns keyIndexes, which
// every operator of this package groups its rows by.
func keyTableOf(input *arrow.Schema, keyIndexes []int) (*keyTable, error) {
	types := make([]arrow.DataType, len(keyIndexes))
	for i, k := range keyIndexes {
		types[i] = input.Field(k).Type
	}
	return newKeyTable(types)
}

// appendAggFields appends the result column of each aggregate, typed by
// the accumulator newAcc makes for it.
func appendAggFields(fields []arrow.Field, aggs []AggSpec, newAcc func(AggSpec) (accumulator, error)) ([]arrow.Field, error) {
	for _, a := range aggs {
		acc, err := newAcc(a)
		if err != nil {
			return nil, err
		}
		fields = append(fields, arrow.Field{Name: a.Name, Type: acc.resultType(), Nullable: a.Nullable()})
	}
	return fields, nil
}
