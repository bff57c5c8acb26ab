package kafka

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/sql"
)

// Source is a planned read of Kafka topics: one split per partition.
type Source struct {
	exec.SourceSpec
	cfg   *config
	value *partDecoding
	key   *partDecoding // nil without 'key.format'
	// columns says where each column of dataSchema comes from: the
	// schema's, without upsert-kafka's leading row kinds.
	columns    []columnFrom
	dataSchema *arrow.Schema
	// valueFormat and keyFormat name the formats, for EXPLAIN.
	valueFormat, keyFormat string
	// upsert is set for upsert-kafka: the read is a changelog by the
	// key, its row kinds leading the schema (see upsert_changelog.go).
	upsert bool
	// align is Flink's watermark alignment of the partitions; nil
	// without 'scan.watermark.alignment.group'.
	align *alignment
	// keyColumns are the columns of the record key ('key.fields').
	keyColumns []string
	// only, for a scaled-out read, is the one partition this read reads;
	// member is the instance's membership of the group, shared by the
	// reads of its partitions (scale_out.go).
	only   *topicPartition
	member *groupMember
}

// columnFrom is the origin of a column of the source: a column the value
// or key decoding makes (its index there), or a metadata key.
type columnFrom struct {
	part  string // "value", "key" or "meta"
	index int
	meta  string
}

// planSource plans the read of table t.
func planSource(t *catalog.Table, conn sql.Option, env *connector.Env) (exec.Source, error) {
	cfg, err := readConfig(t, conn, true)
	if err != nil {
		return nil, err
	}
	parts, err := readParts(t, conn, nil)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(t, parts.formatKeys); err != nil {
		return nil, err
	}
	if env.Run {
		if err := cfg.checkGroup(t, conn); err != nil {
			return nil, err
		}
	}
	return newSource(t, env, cfg, parts)
}

// newSource plans the read of table t, its options read.
func newSource(t *catalog.Table, env *connector.Env, cfg *config, parts *parts) (*Source, error) {
	mf, err := connector.MaxFuture(t)
	if err != nil {
		return nil, err
	}
	settings, err := formats.Read(t)
	if err != nil {
		return nil, err
	}
	s := &Source{
		SourceSpec: exec.SourceSpec{
			Table:       t.Name,
			Schema:      connector.SourceSchema(t),
			BatchSize:   env.BatchSize,
			IdleTimeout: settings.Idle,
			MaxFuture:   mf,
			BadRowsPath: env.BadRowsPath,
		},
		cfg:         cfg,
		keyColumns:  parts.keyFields,
		member:      &groupMember{},
		valueFormat: parts.valueFormat,
		keyFormat:   parts.keyFormat,
	}
	if err := s.layout(t, parts); err != nil {
		return nil, err
	}
	if s.align, err = readAlignment(t, s.Schema, settings.Idle); err != nil {
		return nil, err
	}
	return s, nil
}

// layout decides where each column comes from and makes the decodings.
func (s *Source) layout(t *catalog.Table, p *parts) error {
	s.dataSchema = s.Schema
	var valueFields []arrow.Field
	keyFields := make([]arrow.Field, len(p.keyFields))
	for _, f := range s.Schema.Fields() {
		col := t.Columns[t.Column(f.Name)]
		switch {
		case col.Metadata != "":
			s.columns = append(s.columns, columnFrom{part: "meta", meta: col.Metadata})
		case p.isKey(f.Name):
			// the key's columns in the order 'key.fields' gives
			kf := f
			kf.Name = strings.TrimPrefix(f.Name, p.keyPrefix)
			k := slices.Index(p.keyFields, f.Name)
			s.columns = append(s.columns, columnFrom{part: "key", index: k})
			keyFields[k] = kf
			if p.valueHasKey {
				valueFields = append(valueFields, f)
			}
		default:
			s.columns = append(s.columns, columnFrom{part: "value", index: len(valueFields)})
			valueFields = append(valueFields, f)
		}
	}
	var err error
	if connector.IsChangelogFormat(p.valueFormat) {
		for _, c := range s.columns {
			if c.part != "value" {
				return sql.Errorf(sql.ErrUnsupported, p.valueAt, "a Kafka value in %s with a key format or METADATA columns is not supported yet: table %s may read the value's columns only", p.valueFormat, t.Name)
			}
		}
	}
	if s.value, err = p.decoding(t, "value", p.valueFormat, p.valueAt, valueFields); err != nil {
		return err
	}
	if s.value.changelog {
		s.Schema = s.value.schema // an update stream: the row kind leads
	}
	if p.keyFormat != "" {
		if s.key, err = p.decoding(t, "key", p.keyFormat, p.keyAt, keyFields); err != nil {
			return err
		}
	}
	return nil
}

func (s *Source) NumSplits() int { return 1 } // the partitions are listed when the read opens

func (s *Source) Open(mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	return openReader(s, mem, at)
}

func (s *Source) Explain() string {
	var b strings.Builder
	name := Name
	if s.upsert {
		name = UpsertName
	}
	fmt.Fprintf(&b, "connector=[%s], ", name)
	if s.cfg.pattern != nil {
		fmt.Fprintf(&b, "topic-pattern=[%s]", s.cfg.patternSrc)
	} else {
		fmt.Fprintf(&b, "topic=[%s]", strings.Join(s.cfg.topics, ";"))
	}
	fmt.Fprintf(&b, ", startup=[%s], bounded=[%s], value.format=[%s]", s.cfg.startup.mode, s.cfg.bounded.mode, s.valueFormat)
	if s.keyFormat != "" {
		fmt.Fprintf(&b, ", key.format=[%s]", s.keyFormat)
	}
	b.WriteString(", splits=[one per partition]")
	if s.cfg.scaleOut {
		fmt.Fprintf(&b, ", scale-out=[consumer group %s]", s.cfg.group)
	}
	return b.String()
}

func (s *Source) Checkpointable() error { return nil }

func (s *Source) Identity(b *strings.Builder) {
	fmt.Fprintf(b, "kafka %s %s %s value %s", strings.Join(s.cfg.topics, ";"), s.cfg.patternSrc, s.cfg.startup.mode, s.valueFormat)
	if s.value.decoding != nil {
		s.value.decoding.Identity(b)
	}
	if s.key != nil {
		fmt.Fprintf(b, " key %s", s.keyFormat)
		if s.key.decoding != nil {
			s.key.decoding.Identity(b)
		}
	}
}
