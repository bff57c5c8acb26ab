// Package s3test runs an S3-compatible server in memory for tests (a
// gofakes3 behind httptest) and points the environment's AWS settings
// at it, as a user points them at MinIO.
package s3test
