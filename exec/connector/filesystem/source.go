package filesystem

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/connector/textsource"
	"github.com/wsql/wsql/sql"
)

// planSource plans a read of the table's path. A physical rowtime column
// is declared NOT NULL to the decoder: a row without event time is a bad
// row (docs/semantics.md, "Watermarks"). A directory path is listed now,
// one split per file, so EXPLAIN shows what a run reads. A path that does
// not exist is an error of a query about to run (env.Run), before it
// writes anything; a table declared or explained may get its file later.
func planSource(t *catalog.Table, conn sql.Option, env *connector.Env) (exec.Source, error) {
	path, format, err := checkOptions(t, conn)
	if err != nil {
		return nil, err
	}
	list := textsource.ListSplits
	if len(t.PartitionKeys) > 0 {
		list = textsource.ListPartitionSplits
	}
	splits, err := list(path.Value)
	switch {
	case errors.Is(err, fs.ErrNotExist) && env.Run:
		return nil, missingPath(t, path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, sql.Errorf(sql.ErrInvalid, path.At, "cannot list the files of path '%s': %v", path.Value, err)
	}
	src, f, err := textsource.Plan(t, format.Value, env)
	if err != nil {
		return nil, err
	}
	src.Path, src.Splits = path.Value, splits
	changelog := connector.IsChangelogFormat(format.Value)
	for i, f := range src.Schema.Fields() {
		if i == 0 && changelog {
			continue // the row kind
		}
		c := t.Columns[t.Column(f.Name)]
		switch {
		case c.Metadata != "":
			src.Metadata = append(src.Metadata, textsource.MetadataColumn{Index: i, Key: c.Metadata})
		case slices.Contains(t.PartitionKeys, c.Name):
			src.Metadata = append(src.Metadata, textsource.MetadataColumn{Index: i, Key: textsource.MetaPartition, Partition: c.Name})
		}
	}
	if len(t.PartitionKeys) > 0 {
		// the files of a partitioned table are in its partition
		// directories, which hold the partition columns' values
		name := DefaultPartitionName
		if o, ok := t.Options.Lookup(keyDefaultName); ok {
			name = o.Value
		}
		src.Partitions = &textsource.Partitions{DefaultName: name}
	}
	// 'source.monitor-interval': unbounded, following the files as they
	// grow and the directory as files appear (textsource.Source).
	src.MonitorInterval = f.Monitor
	return src, nil
}

// checkOptions checks the keys of a filesystem table, source or sink: each
// known, of the connector or of the table's format, and 'path' and
// 'format' present.
func checkOptions(t *catalog.Table, conn sql.Option) (path, format sql.Option, err error) {
	readable := connector.ReadFormats()
	format, hasFormat := t.Options.Lookup(connector.KeyFormat)
	known := append([]string(nil), filesystemOptions...)
	if hasFormat && connector.Contains(readable, format.Value) {
		known = append(known, connector.FormatOptionKeys(format.Value)...)
	} else {
		for _, f := range readable {
			known = append(known, connector.FormatOptionKeys(f)...)
		}
	}
	for _, o := range t.Options {
		if connector.Contains(known, o.Key) {
			continue
		}
		for _, f := range readable {
			if connector.Contains(connector.FormatOptionKeys(f), o.Key) {
				return path, format, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' belongs to format '%s', but table %s has format '%s'", o.Key, f, t.Name, format.Value)
			}
		}
		return path, format, connector.UnsupportedOption(o, Name, known)
	}
	path, ok := t.Options.Lookup("path")
	if !ok || path.Value == "" {
		return path, format, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'path' option for connector 'filesystem'", t.Name)
	}
	if !hasFormat {
		return path, format, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'format' option (%s)", t.Name, strings.Join(readable, " or "))
	}
	if err := formats.CheckRead(format); err != nil {
		return path, format, err
	}
	return path, format, nil
}
