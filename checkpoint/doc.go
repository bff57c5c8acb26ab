// Package checkpoint is the on-disk form of a running query's state: a
// binary codec the operators write their state with (Encoder, Decoder) and
// the checkpoint file that holds one consistent snapshot of a whole query
// (Snapshot, Save, Load).
//
// A checkpoint file is written to a temporary name, fsynced, renamed over
// the previous one and the directory fsynced, so a crash at any moment
// leaves either the old checkpoint or the new one, never a mix. The file
// starts with a magic word and a format version and ends with a CRC-32C of
// everything before it; Load refuses a file whose checksum, version or
// structure is wrong as a whole, before any of it is used.
//
// A checkpoint location may also be a prefix in an S3-compatible object
// store, s3://bucket/prefix (package objectstore): Save, Load, List and
// Lock take a path there as they take a local one, so the engine names a
// checkpoint by its path string either way. There a checkpoint is an
// object written whole by one PUT, and its lock a lease.
package checkpoint
