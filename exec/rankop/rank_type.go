package rankop

// RankType is the function a TopN ranks by, as Flink's RankType.
type RankType int

const (
	// RowNumber numbers the rows 1, 2, 3, ... in order, ties by arrival.
	RowNumber RankType = iota
	// StandardRank (RANK()) gives equal rows the same rank and skips
	// the ranks they take: 1, 1, 3.
	StandardRank
	// DenseRank (DENSE_RANK()) gives equal rows the same rank without
	// gaps: 1, 1, 2.
	DenseRank
)

// String is the SQL function's name.
func (t RankType) String() string {
	switch t {
	case StandardRank:
		return "RANK"
	case DenseRank:
		return "DENSE_RANK"
	}
	return "ROW_NUMBER"
}
