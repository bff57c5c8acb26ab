package kafkatest

import (
	"testing"

	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"
)

// Registry is a Confluent schema registry inside a test: franz-go's
// srfake, an HTTP server of the registry's REST API (subjects and their
// versions, schemas by id, compatibility) held in memory. No registry
// server installs here (Confluent's is Java, Karapace Python; Debian has
// only client libraries), so the avro-confluent tests use this one.
type Registry struct{ r *srfake.Registry }

// StartRegistry starts a registry, stopped when the test ends.
func StartRegistry(t testing.TB) *Registry {
	r := srfake.New()
	t.Cleanup(r.Close)
	return &Registry{r: r}
}

// URL is the registry's address.
func (r *Registry) URL() string { return r.r.URL() }

// Latest is the text and id of the latest schema registered under
// subject; ok is false when there is none.
func (r *Registry) Latest(subject string) (schema string, id int, ok bool) {
	for v := 1; ; v++ {
		s, found := r.r.GetSchema(subject, v)
		if !found {
			return schema, id, ok
		}
		schema, id, ok = s.Schema.Schema, s.ID, true
	}
}

// Register registers schema text under subject and returns its id.
func (r *Registry) Register(t testing.TB, subject, schema string) int {
	id, _, err := r.r.RegisterSchema(subject, srSchema(schema))
	if err != nil {
		t.Fatalf("registering a schema under %s: %v", subject, err)
	}
	return id
}

func srSchema(text string) sr.Schema { return sr.Schema{Schema: text} }
