// Package rowstore keeps rows of one schema beyond the batch they arrived
// in: the rows an operator may emit again later (the kept rows of a
// Top-N, the row a deduplication keeps). Rows are copied out of their
// batch in one take per batch, so a kept row never pins the rest of its
// batch, and the copies are compacted once more than half of them are
// gone. A row is named by a stable id while it is kept. The stores of a
// job share a memory budget (Budget): beyond it a store writes its oldest
// chunks to a spill file and reads a row's values back from it when a
// gather asks for them.
package rowstore
