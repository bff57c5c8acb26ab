package kafka

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// planUpsertSink plans a write of an upsert-kafka table: each +I and +U a
// record of its key and row, each -D a tombstone of its key, -U skipped
// (the +U after it replaces the key's row), at least once.
func planUpsertSink(t *catalog.Table, conn sql.Option) (connector.TableSink, error) {
	cfg, p, err := readUpsert(t, conn, false)
	if err != nil {
		return nil, err
	}
	s, err := newTableSink(t, cfg, p)
	if err != nil {
		return nil, err
	}
	s.upsert = true
	return s, nil
}

// planUpsertSource plans a read of an upsert-kafka table from each
// partition's earliest offset: a changelog whose rows carry their kind.
// A key's first record is +I, a later one -U of the row before and +U, a
// tombstone -D of the row before, as Flink's upsert source followed by
// its ChangelogNormalize gives them.
func planUpsertSource(t *catalog.Table, conn sql.Option, env *connector.Env) (exec.Source, error) {
	cfg, p, err := readUpsert(t, conn, true)
	if err != nil {
		return nil, err
	}
	cfg.startup = position{mode: modeEarliest}
	s, err := newSource(t, env, cfg, p)
	if err != nil {
		return nil, err
	}
	s.upsert = true
	s.Schema = arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, s.Schema.Fields()...), nil)
	return s, nil
}

// readUpsert reads and checks an upsert-kafka table's options: its key is
// the PRIMARY KEY's columns.
func readUpsert(t *catalog.Table, conn sql.Option, source bool) (*config, *parts, error) {
	pk, err := upsertKey(t, conn)
	if err != nil {
		return nil, nil, err
	}
	p, err := readParts(t, conn, pk)
	if err != nil {
		return nil, nil, err
	}
	if err := checkUpsertKeys(t, p.formatKeys); err != nil {
		return nil, nil, err
	}
	cfg, err := readConfig(t, conn, source)
	return cfg, p, err
}
