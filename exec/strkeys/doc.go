// Package strkeys numbers the values of one STRING key column for the
// operators that keep state per key (the window operator's keys, the rank
// operators' partitions, the lookup cache's keys, the regular join's key
// groups): a value of up to 8 bytes is found as one word in an
// intkeys.Index of its length, the others in a map of strings.
package strkeys
