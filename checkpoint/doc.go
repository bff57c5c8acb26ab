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
package checkpoint
