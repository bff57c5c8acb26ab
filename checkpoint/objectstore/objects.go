package objectstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
)

// requestTimeout bounds each request, so that an unreachable store fails
// a checkpoint instead of hanging the query.
const requestTimeout = time.Minute

// Get reads the object at url. A missing object is an error wrapping
// fs.ErrNotExist, as a missing file is.
func Get(url string) ([]byte, error) {
	b, _, err := get(url)
	return b, err
}

// get also returns the object's ETag, which a conditional PUT names.
func get(url string) ([]byte, string, error) {
	o, cl, err := open(url)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	obj, err := cl.GetObject(ctx, o.Bucket, o.Key, minio.GetObjectOptions{})
	if err != nil {
		return nil, "", describe(o, err)
	}
	defer obj.Close()
	// read first: the GET's error names a missing bucket, a HEAD's cannot
	b, err := io.ReadAll(obj)
	if err != nil {
		return nil, "", describe(o, err)
	}
	info, err := obj.Stat()
	if err != nil {
		return nil, "", describe(o, err)
	}
	return b, info.ETag, nil
}

// Put writes b as the whole object at url, replacing any before it.
func Put(url string, b []byte) error {
	_, err := put(url, b, minio.PutObjectOptions{})
	return err
}

// put writes b under opts' conditions and returns the new ETag.
func put(url string, b []byte, opts minio.PutObjectOptions) (string, error) {
	o, cl, err := open(url)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	opts.ContentType = "application/octet-stream"
	opts.DisableMultipart = true // one request: all of it or none of it
	info, err := cl.PutObject(ctx, o.Bucket, o.Key, bytes.NewReader(b), int64(len(b)), opts)
	if err != nil {
		return "", describe(o, err)
	}
	return info.ETag, nil
}

// Remove deletes the object at url; a missing one is no error.
func Remove(url string) error {
	o, cl, err := open(url)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if err := cl.RemoveObject(ctx, o.Bucket, o.Key, minio.RemoveObjectOptions{}); err != nil {
		return describe(o, err)
	}
	return nil
}

// List returns the names of the objects directly under the prefix url
// (as the entries of a directory: "a" for url/a, not url/a/b).
func List(url string) ([]string, error) {
	o, cl, err := open(url)
	if err != nil {
		return nil, err
	}
	if o.Key != "" && !strings.HasSuffix(o.Key, "/") {
		o.Key += "/"
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	var names []string
	for info := range cl.ListObjects(ctx, o.Bucket, minio.ListObjectsOptions{Prefix: o.Key}) {
		if info.Err != nil {
			return nil, describe(o, info.Err)
		}
		if name := strings.TrimPrefix(info.Key, o.Key); name != "" && !strings.HasSuffix(name, "/") {
			names = append(names, name)
		}
	}
	return names, nil
}

func open(url string) (Object, *minio.Client, error) {
	o, err := Parse(url)
	if err != nil {
		return o, nil, err
	}
	cl, err := client()
	return o, cl, err
}

// describe names the object in err, and makes a missing object
// fs.ErrNotExist. The store's messages carry no credentials.
func describe(o Object, err error) error {
	resp := minio.ToErrorResponse(err)
	switch {
	case resp.Code == minio.NoSuchKey:
		return fmt.Errorf("%s: %w", o, fs.ErrNotExist)
	case resp.Code == minio.NoSuchBucket:
		return fmt.Errorf("%s: the bucket %s does not exist", o, o.Bucket)
	case resp.StatusCode == http.StatusPreconditionFailed || resp.StatusCode == http.StatusConflict:
		return fmt.Errorf("%s: %w", o, errConflict)
	}
	return fmt.Errorf("%s: %w", o, err)
}
