package kafka

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/connector"
)

// Name is the connector's identifier.
const Name = "kafka"

// The connector's keys, as Flink's Kafka connector names them.
const (
	keyTopic             = "topic"
	keyTopicPattern      = "topic-pattern"
	keyBootstrap         = "properties.bootstrap.servers"
	keyGroupID           = "properties.group.id"
	keyValueFormat       = "value.format"
	keyKeyFormat         = "key.format"
	keyKeyFields         = "key.fields"
	keyKeyFieldsPrefix   = "key.fields-prefix"
	keyValueFieldsInc    = "value.fields-include"
	keyStartupMode       = "scan.startup.mode"
	keyStartupOffsets    = "scan.startup.specific-offsets"
	keyStartupTimestamp  = "scan.startup.timestamp-millis"
	keyBoundedMode       = "scan.bounded.mode"
	keyBoundedOffsets    = "scan.bounded.specific-offsets"
	keyBoundedTimestamp  = "scan.bounded.timestamp-millis"
	keyDiscovery         = "scan.topic-partition-discovery.interval"
	keyPartitioner       = "sink.partitioner"
	keyDeliveryGuarantee = "sink.delivery-guarantee"
	keyTransactionalID   = "sink.transactional-id-prefix"
	keyScaleOut          = "wsql.scale-out"
	propertiesPrefix     = "properties."
)

var options = []connector.Option{
	connector.ConnectorOption,
	{Key: keyTopic, Type: "string", Scope: connector.Both, Description: "the topic read or written; a source reads several separated by ';'"},
	{Key: keyTopicPattern, Type: "string", Scope: connector.Source, Description: "a regular expression: every topic whose whole name it matches is read"},
	{Key: keyBootstrap, Type: "string", Required: true, Scope: connector.Both, Description: "the brokers to connect to first, host:port separated by ','"},
	{Key: keyGroupID, Type: "string", Scope: connector.Both, Description: "the consumer group whose committed offsets 'group-offsets' reads"},
	{Key: connector.KeyFormat, Type: "json | csv | raw", Scope: connector.Both, Description: "the format of the message value (or 'value.format')"},
	{Key: keyValueFormat, Type: "json | csv | raw", Scope: connector.Both, Description: "the format of the message value; its options are prefixed 'value.' ('value.json.ignore-parse-errors')"},
	{Key: keyKeyFormat, Type: "json | csv | raw", Scope: connector.Both, Description: "the format of the message key, of the columns 'key.fields' names"},
	{Key: keyKeyFields, Type: "string", Scope: connector.Both, Description: "the columns of the message key, separated by ';'"},
	{Key: keyKeyFieldsPrefix, Type: "string", Scope: connector.Both, Description: "a prefix of the key columns' names that the key format does not see"},
	{Key: keyValueFieldsInc, Type: "ALL | EXCEPT_KEY", Default: "ALL", Scope: connector.Both, Description: "whether the value holds the key columns too"},
	{Key: keyStartupMode, Type: "earliest-offset | latest-offset | group-offsets | timestamp | specific-offsets", Default: "group-offsets", Scope: connector.Source, Description: "where the read starts in each partition"},
	{Key: keyStartupOffsets, Type: "string", Scope: connector.Source, Description: "for 'specific-offsets': partition:P,offset:O pairs separated by ';'"},
	{Key: keyStartupTimestamp, Type: "int", Scope: connector.Source, Description: "for 'timestamp': the first record at or after this Unix millisecond"},
	{Key: keyBoundedMode, Type: "unbounded | latest-offset | group-offsets | timestamp | specific-offsets", Default: "unbounded", Scope: connector.Source, Description: "where the read ends in each partition: the end when the read starts, ..."},
	{Key: keyBoundedOffsets, Type: "string", Scope: connector.Source, Description: "for 'specific-offsets': partition:P,offset:O pairs separated by ';', each partition's end (exclusive)"},
	{Key: keyBoundedTimestamp, Type: "int", Scope: connector.Source, Description: "for 'timestamp': the read ends before the first record after this Unix millisecond"},
	{Key: keyDiscovery, Type: "duration", Scope: connector.Source, Description: "an unbounded read looks for new partitions this often (default 5 min; 0 never)"},
	connector.IdleTimeoutOption,
	connector.MaxFutureOption,
	{Key: keyScaleOut, Type: "none | consumer-group", Default: "none", Scope: connector.Source, Description: "consumer-group: the instances of the query with the same 'properties.group.id' share the partitions, each partition's state checkpointed apart (through a repartition topic when the GROUP BY keys are not the record key)"},
	{Key: keyPartitioner, Type: "default | fixed | round-robin", Default: "default", Scope: connector.Sink, Description: "the partition of each record: by the key's hash (sticky without a key), all to partition 0, or in turn"},
	{Key: keyDeliveryGuarantee, Type: "none | at-least-once | exactly-once", Default: "at-least-once", Scope: connector.Sink, Description: "at-least-once waits for every record at each checkpoint and at the end"},
	{Key: keyTransactionalID, Type: "string", Scope: connector.Sink, Description: "the prefix of the transactional ids of an exactly-once sink"},
}

// The metadata keys, as Flink's Kafka connector documents them, and the
// record's key.
const (
	metaTopic         = "topic"
	metaPartition     = "partition"
	metaHeaders       = "headers"
	metaLeaderEpoch   = "leader-epoch"
	metaOffset        = "offset"
	metaTimestamp     = "timestamp"
	metaTimestampType = "timestamp-type"
	metaKey           = "key"
)

var metadata = []connector.MetadataKey{
	{Key: metaTopic, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the record's topic"},
	{Key: metaPartition, SQLType: "INT", Type: arrow.PrimitiveTypes.Int32, Description: "the record's partition"},
	{Key: metaHeaders, SQLType: "MAP<STRING, BYTES>", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.Binary), Description: "the record's headers (a key given twice: its last value)"},
	{Key: metaLeaderEpoch, SQLType: "INT", Type: arrow.PrimitiveTypes.Int32, Description: "the leader epoch of the record, NULL when the broker gives none"},
	{Key: metaOffset, SQLType: "BIGINT", Type: arrow.PrimitiveTypes.Int64, Description: "the record's offset in its partition"},
	{Key: metaTimestamp, SQLType: "TIMESTAMP_LTZ(3)", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Description: "the record's timestamp"},
	{Key: metaTimestampType, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "NoTimestampType, CreateTime or LogAppendTime"},
	{Key: metaKey, SQLType: "BYTES", Type: arrow.BinaryTypes.Binary, Description: "the record's key as it is, NULL for none"},
}

func init() {
	options = append(options, alignmentOptions...)
	connector.Register(&connector.Connector{Name: Name, Rank: 40, SinkRank: 40, Options: options, Metadata: metadata,
		NewSource: planSource, NewSink: planSink})
}
