package objectstore

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/internal/s3test"
)

func TestPutGetList(t *testing.T) {
	s3test.Start(t)
	url := "s3://" + s3test.Bucket + "/ckpt/query-1-abc.ckpt"
	_, err := Get(url)
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorContains(t, err, url)

	require.NoError(t, Put(url, []byte("one")))
	require.NoError(t, Put(url, []byte("two")))
	b, err := Get(url)
	require.NoError(t, err)
	require.Equal(t, "two", string(b))

	require.NoError(t, Put("s3://bucket/ckpt/query-1-abc.partitions/t-0.ckpt", []byte("p")))
	require.NoError(t, Put("s3://bucket/ckptother/x.ckpt", []byte("x")))
	names, err := List("s3://bucket/ckpt")
	require.NoError(t, err)
	require.Equal(t, []string{"query-1-abc.ckpt"}, names, "the objects directly under the prefix")
	names, err = List("s3://bucket/nothing/")
	require.NoError(t, err)
	require.Empty(t, names)

	require.NoError(t, Remove(url))
	require.NoError(t, Remove(url), "removing a missing object")
	_, err = Get(url)
	require.ErrorIs(t, err, fs.ErrNotExist)
}

func TestMissingBucketIsNamed(t *testing.T) {
	s3test.Start(t)
	_, err := Get("s3://nobucket/ckpt/a.ckpt")
	require.Error(t, err)
	require.NotErrorIs(t, err, fs.ErrNotExist, "a missing bucket is a mistake, not an empty location")
	require.ErrorContains(t, err, "s3://nobucket/ckpt/a.ckpt")
	require.NotContains(t, err.Error(), "test-secret")
}

func TestParse(t *testing.T) {
	o, err := Parse("s3://b/p/q.ckpt")
	require.NoError(t, err)
	require.Equal(t, Object{Bucket: "b", Key: "p/q.ckpt"}, o)
	_, err = Parse("s3:///p")
	require.ErrorContains(t, err, "names no bucket")
	require.Equal(t, "s3://b/p/x.ckpt", Join("s3://b/p/", "x.ckpt"))
	require.True(t, IsURL("s3://b"))
	require.False(t, IsURL("local/s3://b"))
}

func TestEndpointMustBeHTTP(t *testing.T) {
	t.Setenv("AWS_ENDPOINT_URL_S3", "localhost:9000")
	_, err := Get("s3://b/k")
	require.ErrorContains(t, err, "is not an http:// or https:// URL")
}
