// Package intervaltext writes interval values as Flink's print sink and
// CAST(... AS STRING) write them: a year-month interval of 14 months is
// +1-02, a day-time interval of two days +2 00:00:00.000. wsql keeps a
// day-time interval as Arrow duration[ms] and a year-month interval as
// Arrow month_interval (int32 months), as Flink keeps them as milliseconds
// and months.
package intervaltext
