// Package datepattern compiles Java date patterns (the letters of
// DateTimeFormatter and SimpleDateFormat that Flink's DATE_FORMAT,
// TO_TIMESTAMP, UNIX_TIMESTAMP and CAST use) once into a Layout of
// segments, which reads text into epoch milliseconds (Parse) and writes
// them as text (Append) without time.Parse and without allocating.
package datepattern
