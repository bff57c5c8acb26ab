package connector

import (
	"sort"
	"sync"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/message"
	"github.com/wsql/wsql/exec/format/writer"
)

// Format is a format's declaration ('format' = Name), like Flink's format
// factories: its option schema and whether connectors can read it, write
// it or both.
type Format struct {
	Name string
	// Rank orders the formats in messages and listings (lower first).
	Rank    int
	Options []Option
	// Reads and Writes say whether a source can decode the format and a
	// sink write it.
	Reads, Writes bool
	// Messages marks a format of whole messages, read and written by the
	// connectors of messages (kafka) alone: it is not among the formats
	// of lines (ReadFormats, WriteFormats) that files and streams read.
	Messages bool
	// Changelog marks a format whose rows carry a row kind: a source
	// reads it as an update stream, and a sink writes an update stream
	// in it (debezium-json).
	Changelog bool
	// Decoding, for a format a source reads, makes its decoders from a
	// table's options (checked by the connector).
	Decoding func(t *catalog.Table) (format.Decoding, error)
	// Writing, for a format a sink writes, makes its writer from a sink
	// table's options (checked by the connector); it refuses the options
	// the writer cannot honour.
	Writing func(t *catalog.Table) (writer.Writing, error)
	// Message, for a format of binary messages (avro), makes its codec
	// of one message part (part is "value" or "key" of topic) from the
	// part's table; a connector of messages reads and writes through it.
	Message func(t *catalog.Table, part, topic string) (message.Codec, error)
}

var formats struct {
	mu    sync.RWMutex
	byKey map[string]*Format
}

// RegisterFormat adds a format; a second format of the same name panics.
func RegisterFormat(f *Format) {
	formats.mu.Lock()
	defer formats.mu.Unlock()
	if formats.byKey == nil {
		formats.byKey = map[string]*Format{}
	}
	if _, dup := formats.byKey[f.Name]; dup {
		panic("connector: RegisterFormat called twice for " + f.Name)
	}
	formats.byKey[f.Name] = f
}

// LookupFormat finds a registered format by name.
func LookupFormat(name string) (*Format, bool) {
	formats.mu.RLock()
	defer formats.mu.RUnlock()
	f, ok := formats.byKey[name]
	return f, ok
}

// Formats returns the registered formats by rank.
func Formats() []*Format {
	formats.mu.RLock()
	defer formats.mu.RUnlock()
	var fs []*Format
	for _, f := range formats.byKey {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Rank != fs[j].Rank {
			return fs[i].Rank < fs[j].Rank
		}
		return fs[i].Name < fs[j].Name
	})
	return fs
}

// ReadFormats names the formats a source of lines reads, by rank.
func ReadFormats() []string {
	var names []string
	for _, f := range Formats() {
		if f.Reads && !f.Messages {
			names = append(names, f.Name)
		}
	}
	return names
}

// WriteFormats names the formats a sink of lines writes, by rank.
func WriteFormats() []string {
	var names []string
	for _, f := range Formats() {
		if f.Writes && !f.Messages {
			names = append(names, f.Name)
		}
	}
	return names
}

// FormatOptionKeys are the keys of the named format; nil for an unknown one.
func FormatOptionKeys(name string) []string {
	f, ok := LookupFormat(name)
	if !ok {
		return nil
	}
	return Keys(f.Options, Both)
}

// IsChangelogFormat reports a registered format whose rows carry a row kind.
func IsChangelogFormat(name string) bool {
	f, ok := LookupFormat(name)
	return ok && f.Changelog
}

// FormatDecoding makes the decoders of the named format for table t; nil
// for a format no source reads.
func FormatDecoding(name string, t *catalog.Table) (format.Decoding, error) {
	if f, ok := LookupFormat(name); ok && f.Decoding != nil {
		return f.Decoding(t)
	}
	return nil, nil
}

// MessageFormat is the codec of a format of binary messages for a part
// of a message (see Format.Message); nil for a format of text.
func MessageFormat(name string, t *catalog.Table, part, topic string) (message.Codec, error) {
	if f, ok := LookupFormat(name); ok && f.Message != nil {
		return f.Message(t, part, topic)
	}
	return nil, nil
}

// FormatWriting makes the writer of the named format for sink table t; nil
// for a format no sink writes.
func FormatWriting(name string, t *catalog.Table) (writer.Writing, error) {
	if f, ok := LookupFormat(name); ok && f.Writing != nil {
		return f.Writing(t)
	}
	return nil, nil
}
