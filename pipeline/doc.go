// Package pipeline is the contract every stage of a wsql pipeline keeps:
// the Batch that flows between stages and the Operator interface that
// sources push into, operators pass along and sinks end. It is a leaf: the
// filter, projection, computed columns, watermark assigner, window operators
// and sinks all import it, and it imports only Arrow.
package pipeline
