// Package generator is the machinery the generator connectors (datagen,
// nexmark) share: the one-split Reader that cuts a generator's rows into
// batches, optionally paced and resumable from a checkpoint; the PCG the
// columns draw from; and StringColumn, which builds a STRING column
// straight into its Arrow buffers.
package generator
