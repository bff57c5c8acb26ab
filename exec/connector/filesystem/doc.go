// Package filesystem is Flink's 'filesystem' connector: a file or a
// directory of files read as splits (followed as they grow with
// 'source.monitor-interval'), and written by INSERT as part files,
// exactly once with checkpoints. It registers itself with exec/connector.
package filesystem
