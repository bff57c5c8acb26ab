package s3test

import (
	"net/http/httptest"
	"sort"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Bucket is the bucket Start creates.
const Bucket = "bucket"

// Server is an S3-compatible server in memory.
type Server struct {
	URL     string
	backend *s3mem.Backend
}

// Start serves an empty bucket Bucket until the test ends and sets
// AWS_ENDPOINT_URL_S3 and the credentials for it (so the test may not
// run in parallel).
func Start(t testing.TB) *Server {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(Bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.URL)
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_REGION", "us-east-1")
	return &Server{URL: srv.URL, backend: backend}
}

// Keys lists every object of Bucket, sorted.
func (s *Server) Keys(t testing.TB) []string {
	t.Helper()
	var keys []string
	for key := range s.ETags(t) {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// ETags are the ETags of the objects of Bucket by key: a changed one is
// an object written again.
func (s *Server) ETags(t testing.TB) map[string]string {
	t.Helper()
	list, err := s.backend.ListBucket(Bucket, nil, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	etags := map[string]string{}
	for _, c := range list.Contents {
		etags[c.Key] = c.ETag
	}
	return etags
}
