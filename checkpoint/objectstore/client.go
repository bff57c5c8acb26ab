package objectstore

import (
	"fmt"
	"net/url"
	"os"
	"sync"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// config is where the client connects, read from the environment the
// way the AWS SDKs and CLI read it.
type config struct {
	host   string // host[:port] of the endpoint
	secure bool
	region string
	custom bool // an endpoint was given: path-style addressing
}

func configFromEnv() (config, error) {
	c := config{host: "s3.amazonaws.com", secure: true, region: os.Getenv("AWS_REGION")}
	if c.region == "" {
		c.region = os.Getenv("AWS_DEFAULT_REGION")
	}
	endpoint := os.Getenv("AWS_ENDPOINT_URL_S3")
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL")
	}
	if endpoint == "" {
		return c, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return c, fmt.Errorf("the S3 endpoint %q (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL) is not an http:// or https:// URL", endpoint)
	}
	c.host, c.secure, c.custom = u.Host, u.Scheme == "https", true
	return c, nil
}

// clients are shared by configuration, so that checkpoints reuse their
// connections.
var (
	clientsMu sync.Mutex
	clients   = map[config]*minio.Client{}
)

// client is the client of the configuration in the environment now.
func client() (*minio.Client, error) {
	c, err := configFromEnv()
	if err != nil {
		return nil, err
	}
	clientsMu.Lock()
	defer clientsMu.Unlock()
	if cl := clients[c]; cl != nil {
		return cl, nil
	}
	lookup := minio.BucketLookupAuto
	if c.custom {
		lookup = minio.BucketLookupPath // MinIO and most self-hosted stores
	}
	creds := credentials.NewChainCredentials([]credentials.Provider{
		&credentials.EnvAWS{},
		&credentials.FileAWSCredentials{},
		&credentials.IAM{},
	})
	cl, err := minio.New(c.host, &minio.Options{Creds: creds, Secure: c.secure, Region: c.region, BucketLookup: lookup})
	if err != nil {
		return nil, fmt.Errorf("S3 client for %s: %w", c.host, err)
	}
	clients[c] = cl
	return cl, nil
}
