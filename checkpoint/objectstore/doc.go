// Package objectstore keeps checkpoints in an S3-compatible object store
// (AWS S3, MinIO, Ceph, ...): a location is a URL s3://bucket/prefix and
// each checkpoint an object under it. It deals in bytes and names only;
// package checkpoint encodes what goes in them.
//
// The client is configured as the AWS tools are: credentials from
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, the
// shared credentials file or the instance's IAM role; the region from
// AWS_REGION; the endpoint from AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL
// (http:// for no TLS, path-style addressing), AWS itself without one.
//
// A PUT replaces a whole object, so a checkpoint is written atomically
// without the temporary file and rename a directory needs. The one-writer
// lock of a checkpoint is a Lease: an object created only if absent,
// renewed by its holder and taken over once it expires.
package objectstore
