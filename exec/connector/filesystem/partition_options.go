package filesystem

import (
	"strings"
	"time"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// The sink options of Flink's filesystem connector for partitions and
// part files, by Flink's names.
const (
	keyDefaultName        = "partition.default-name"
	keyCommitTrigger      = "sink.partition-commit.trigger"
	keyCommitDelay        = "sink.partition-commit.delay"
	keyCommitPolicy       = "sink.partition-commit.policy.kind"
	keySuccessFileName    = "sink.partition-commit.success-file.name"
	keyRollSize           = "sink.rolling-policy.file-size"
	keyRolloverInterval   = "sink.rolling-policy.rollover-interval"
	keyRollCheckInterval  = "sink.rolling-policy.check-interval"
	keyInactivityInterval = "sink.rolling-policy.inactivity-interval"
	keyTimestampPattern   = "partition.time-extractor.timestamp-pattern"
	keyExtractorKind      = "partition.time-extractor.kind"
	keyTimestampFormatter = "partition.time-extractor.timestamp-formatter"
)

// Flink's defaults of the rolling policy.
const (
	defaultRollSize         = 128 << 20
	defaultRolloverInterval = 30 * time.Minute
)

// sinkOptions are a filesystem sink's partition and rolling options, read.
type sinkOptions struct {
	DefaultName      string
	SuccessFile      string // "" without the 'success-file' policy
	RollSize         int64
	RolloverInterval time.Duration
}

// readSinkOptions reads and checks the partition commit and rolling
// options of sink table t: each implemented with Flink's meaning, or
// refused at its position, naming it and saying why.
func readSinkOptions(t *catalog.Table) (sinkOptions, error) {
	o := sinkOptions{DefaultName: DefaultPartitionName, RollSize: defaultRollSize, RolloverInterval: defaultRolloverInterval}
	opts := t.Options
	if v, ok := opts.Lookup(keyDefaultName); ok {
		if v.Value == "" {
			return o, sql.Errorf(sql.ErrInvalid, v.At, "option '%s' must not be empty", v.Key)
		}
		o.DefaultName = v.Value
	}
	if v, ok := opts.Lookup(keyCommitTrigger); ok {
		switch strings.ToLower(strings.TrimSpace(v.Value)) {
		case "process-time":
		case "partition-time":
			return o, sql.Errorf(sql.ErrUnsupported, v.At, "option '%s' = 'partition-time' is not supported yet: the filesystem sink does not see the watermark, so it commits a partition when the checkpoint committing its files completes ('process-time' with no delay); drop the option, or set it to 'process-time'", v.Key)
		default:
			return o, sql.Errorf(sql.ErrInvalid, v.At, "option '%s' must be 'process-time' or 'partition-time', got '%s'", v.Key, v.Value)
		}
	}
	if v, ok := opts.Lookup(keyCommitDelay); ok {
		d, err := connector.Duration(v)
		if err != nil {
			return o, err
		}
		if d != 0 {
			return o, sql.Errorf(sql.ErrUnsupported, v.At, "option '%s' = '%s' is not supported yet: the filesystem sink commits a partition when the checkpoint committing its files completes, with no delay; drop the option, or set it to '0 s'", v.Key, v.Value)
		}
	}
	for _, key := range []string{keyTimestampPattern, keyExtractorKind, keyTimestampFormatter} {
		if v, ok := opts.Lookup(key); ok {
			return o, sql.Errorf(sql.ErrUnsupported, v.At, "option '%s' is not supported yet: it extracts a time from partition values for the 'partition-time' commit trigger, which the filesystem sink does not support yet; drop the option", v.Key)
		}
	}
	if v, ok := opts.Lookup(keyCommitPolicy); ok {
		for _, kind := range strings.Split(v.Value, ",") {
			switch strings.ToLower(strings.TrimSpace(kind)) {
			case "success-file":
				o.SuccessFile = DefaultSuccessFileName
			case "metastore":
				// Flink: "Can not configure a 'metastore' partition commit policy for a file system table."
				return o, sql.Errorf(sql.ErrInvalid, v.At, "option '%s': a 'metastore' partition commit policy cannot be configured for a filesystem table: it has no metastore (Flink's is a Hive table's); use 'success-file'", v.Key)
			case "custom":
				return o, sql.Errorf(sql.ErrUnsupported, v.At, "option '%s' = 'custom' is not supported: it names a Java class ('sink.partition-commit.policy.class'); use 'success-file'", v.Key)
			default:
				return o, sql.Errorf(sql.ErrInvalid, v.At, "option '%s' must be 'success-file' (or Flink's 'metastore' or 'custom', which a filesystem table cannot use), got '%s'", v.Key, v.Value)
			}
		}
	}
	if v, ok := opts.Lookup(keySuccessFileName); ok {
		if v.Value == "" || strings.ContainsAny(v.Value, `/\`) || v.Value == "." || v.Value == ".." {
			return o, sql.Errorf(sql.ErrInvalid, v.At, "option '%s' must be a file name, got '%s'", v.Key, v.Value)
		}
		if o.SuccessFile != "" {
			o.SuccessFile = v.Value
		}
	}
	if v, ok := opts.Lookup(keyRollSize); ok {
		n, err := connector.ParseMemorySize(v.Key, v.Value)
		if err != nil {
			return o, sql.Errorf(sql.ErrInvalid, v.At, "%v", err)
		}
		o.RollSize = n
	}
	for _, key := range []string{keyRolloverInterval, keyRollCheckInterval} {
		v, ok := opts.Lookup(key)
		if !ok {
			continue
		}
		d, err := connector.Duration(v)
		if err == nil && d <= 0 {
			err = sql.Errorf(sql.ErrInvalid, v.At, "option '%s' must be a positive duration, got '%s'", v.Key, v.Value)
		}
		if err != nil {
			return o, err
		}
		if key == keyRolloverInterval {
			o.RolloverInterval = d
		}
	}
	if v, ok := opts.Lookup(keyInactivityInterval); ok {
		return o, sql.Errorf(sql.ErrUnsupported, v.At, "option '%s' is not supported yet: part files end at each checkpoint, at 'sink.rolling-policy.file-size' and at 'sink.rolling-policy.rollover-interval'; drop the option", v.Key)
	}
	return o, nil
}
