package rowtime

// CombineRows turns the per-row watermarks of one split's batch into the
// source's per-row watermarks, in place. On entry perRow[i] is the split's
// own watermark before row i (its prefix maximum); on return it is
//
//	max(floor, min(perRow[i], others))
//
// where others is the minimum watermark of the other active splits and floor
// the combined watermark already emitted. others is constant during the batch
// because only this split delivers rows, and floor keeps the watermark from
// going back. Since a prefix maximum never decreases, the result is exactly
// what a row-at-a-time combination (one CombinedWatermark update per row)
// would give, so results do not depend on batch size. Pass MaxWatermark as
// others when no other split is active.
func CombineRows(perRow []int64, others, floor int64) {
	if len(perRow) > 0 && others == MaxWatermark && perRow[0] >= floor {
		// one split, or no other active: every row keeps its own (it
		// never decreases), without a pass (4% of a TUMBLE over datagen)
		return
	}
	for i, w := range perRow {
		perRow[i] = max(floor, min(w, others))
	}
}
