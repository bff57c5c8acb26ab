package rowtime

// Embed the IANA zone database (about 450 kB) in every binary that uses
// rowtime, so 'table.local-time-zone' resolves on machines without one
// (containers, Windows); time.LoadLocation still prefers the system copy.
import _ "time/tzdata"
