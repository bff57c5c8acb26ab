package objectstore

import (
	"fmt"
	"strings"
)

// scheme starts a location in an object store.
const scheme = "s3://"

// IsURL reports whether location names an object store (s3://...) rather
// than a local path.
func IsURL(location string) bool { return strings.HasPrefix(location, scheme) }

// Object is the place of an object, or of a prefix of objects.
type Object struct {
	Bucket string
	Key    string // no leading slash; "" for the whole bucket
}

// Parse reads s3://bucket/key.
func Parse(url string) (Object, error) {
	rest, ok := strings.CutPrefix(url, scheme)
	if !ok {
		return Object{}, fmt.Errorf("%q is not an s3:// URL", url)
	}
	bucket, key, _ := strings.Cut(rest, "/")
	if bucket == "" {
		return Object{}, fmt.Errorf("%q names no bucket: write s3://bucket/prefix", url)
	}
	return Object{Bucket: bucket, Key: strings.TrimLeft(key, "/")}, nil
}

// String is the object's URL, as errors name it.
func (o Object) String() string { return scheme + o.Bucket + "/" + o.Key }

// Join is the URL of name under the prefix url, one slash between them.
func Join(url, name string) string {
	return strings.TrimRight(url, "/") + "/" + strings.TrimLeft(name, "/")
}
