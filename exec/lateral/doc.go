// Package lateral runs Flink's correlate: each input row joined with the
// rows computed from it, by UNNEST of an array, multiset or map, or by a
// table function a Go program registered (LATERAL TABLE). It keeps no
// state: each row's output depends on that row alone, so it runs on
// append and update streams alike, each output row of the input row's
// kind, under the input row's watermark.
package lateral
