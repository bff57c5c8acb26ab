package kafka

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// config is a table's connector options, read and checked.
type config struct {
	table      string
	brokers    []string
	topics     []string       // the topics named, or nil with pattern
	pattern    *regexp.Regexp // 'topic-pattern', anchored at both ends
	patternSrc string
	group      string
	client     clientProps
	// scaleOut shares the read among the query's instances in the
	// consumer group ('wsql.scale-out'; scale_out.go).
	scaleOut bool

	startup position
	bounded position // mode "unbounded": no end
	// discovery is how often an unbounded read looks for new partitions;
	// 0 never.
	discovery time.Duration
}

// position is a start or end of the read in each partition: a mode of
// 'scan.startup.mode' or 'scan.bounded.mode' with its offsets or time.
type position struct {
	mode    string
	offsets map[int32]int64 // specific-offsets, by partition
	millis  int64           // timestamp
	at      sql.Pos
}

// The startup and bounded modes.
const (
	modeEarliest    = "earliest-offset"
	modeLatest      = "latest-offset"
	modeGroup       = "group-offsets"
	modeTimestamp   = "timestamp"
	modeSpecific    = "specific-offsets"
	modeUnbounded   = "unbounded"
	defaultDiscover = 5 * time.Minute
)

// readConfig reads the connection and topic options of table t, and with
// source the startup and bounded options.
func readConfig(t *catalog.Table, conn sql.Option, source bool) (*config, error) {
	c := &config{table: t.Name, startup: position{mode: modeGroup}, bounded: position{mode: modeUnbounded}, discovery: defaultDiscover}
	var err error
	var startOffsets, startMillis, endOffsets, endMillis *sql.Option
	for _, o := range t.Options {
		switch o.Key {
		case keyBootstrap:
			if c.brokers = items(o.Value, ","); len(c.brokers) == 0 {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' names no broker: give host:port, separated by ','", o.Key)
			}
		case keyTopic:
			if c.topics = items(o.Value, ";"); len(c.topics) == 0 {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' names no topic", o.Key)
			}
			if !source && len(c.topics) > 1 {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "a Kafka sink writes one topic, but option '%s' names %d", o.Key, len(c.topics))
			}
		case keyTopicPattern:
			if c.pattern, err = regexp.Compile("^(?:" + o.Value + ")$"); err != nil {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' is not a regular expression: %v", o.Key, err)
			}
			c.patternSrc = o.Value
		case keyGroupID:
			c.group = o.Value
		case keyScaleOut:
			if source {
				v, err := mode(o, scaleOutNone, scaleOutGroup)
				if err != nil {
					return nil, err
				}
				c.scaleOut = v == scaleOutGroup
			}
		case keyStartupMode:
			if c.startup.mode, err = mode(o, modeEarliest, modeLatest, modeGroup, modeTimestamp, modeSpecific); err != nil {
				return nil, err
			}
			c.startup.at = o.At
		case keyBoundedMode:
			if c.bounded.mode, err = mode(o, modeUnbounded, modeLatest, modeGroup, modeTimestamp, modeSpecific); err != nil {
				return nil, err
			}
			c.bounded.at = o.At
		case keyStartupOffsets:
			startOffsets = &o
		case keyStartupTimestamp:
			startMillis = &o
		case keyBoundedOffsets:
			endOffsets = &o
		case keyBoundedTimestamp:
			endMillis = &o
		case keyDiscovery:
			if c.discovery, err = connector.Duration(o); err != nil {
				return nil, err
			}
		}
	}
	if c.topics != nil && c.pattern != nil {
		o, _ := t.Options.Lookup(keyTopicPattern)
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "table %s gives both 'topic' and 'topic-pattern': give one", t.Name)
	}
	if c.topics == nil && c.pattern == nil {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'topic' option%s", t.Name, map[bool]string{true: " or a 'topic-pattern'", false: ""}[source])
	}
	if c.client, err = readClientProps(t); err != nil {
		return nil, err
	}
	if !source {
		return c, nil
	}
	if err := c.checkScaleOut(t); err != nil {
		return nil, err
	}
	if err := c.startup.details(t, conn, startOffsets, startMillis, keyStartupMode); err != nil {
		return nil, err
	}
	if err := c.bounded.details(t, conn, endOffsets, endMillis, keyBoundedMode); err != nil {
		return nil, err
	}
	return c, nil
}

// checkGroup refuses a read from or to the committed offsets of a
// consumer group that names none: checked when the read is planned to
// run, so a table written to (Flink's default start is 'group-offsets')
// needs no group.
func (c *config) checkGroup(t *catalog.Table, conn sql.Option) error {
	for _, p := range []position{c.startup, c.bounded} {
		if p.mode == modeGroup && c.group == "" {
			return sql.Errorf(sql.ErrInvalid, p.orAt(conn.At), "'%s' reads the committed offsets of a consumer group: table %s needs a '%s' option, or another '%s'", modeGroup, t.Name, keyGroupID, keyStartupMode)
		}
	}
	return nil
}

// items are the non-empty items of a list separated by sep, trimmed.
func items(list, sep string) []string {
	var out []string
	for _, it := range strings.Split(list, sep) {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

func (p position) orAt(at sql.Pos) sql.Pos {
	if p.at.Line == 0 {
		return at
	}
	return p.at
}

// details reads the offsets or time the mode needs, and refuses them
// where the mode takes none.
func (p *position) details(t *catalog.Table, conn sql.Option, offsets, millis *sql.Option, modeKey string) error {
	if offsets != nil && p.mode != modeSpecific {
		return sql.Errorf(sql.ErrInvalid, offsets.At, "option '%s' needs '%s' = '%s'", offsets.Key, modeKey, modeSpecific)
	}
	if millis != nil && p.mode != modeTimestamp {
		return sql.Errorf(sql.ErrInvalid, millis.At, "option '%s' needs '%s' = '%s'", millis.Key, modeKey, modeTimestamp)
	}
	switch p.mode {
	case modeSpecific:
		if offsets == nil {
			return sql.Errorf(sql.ErrInvalid, p.orAt(conn.At), "'%s' = '%s' needs the offsets: table %s has no '%s' option", modeKey, modeSpecific, t.Name, strings.Replace(modeKey, ".mode", ".specific-offsets", 1))
		}
		var err error
		p.offsets, err = specificOffsets(*offsets)
		return err
	case modeTimestamp:
		if millis == nil {
			return sql.Errorf(sql.ErrInvalid, p.orAt(conn.At), "'%s' = '%s' needs a time: table %s has no '%s' option", modeKey, modeTimestamp, t.Name, strings.Replace(modeKey, ".mode", ".timestamp-millis", 1))
		}
		var err error
		p.millis, err = connector.NonNegativeInt(*millis)
		return err
	}
	return nil
}

func mode(o sql.Option, modes ...string) (string, error) {
	if slices.Contains(modes, o.Value) {
		return o.Value, nil
	}
	return "", sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be one of %s, got '%s'%s", o.Key, strings.Join(modes, ", "), o.Value, sql.DidYouMean(o.Value, modes))
}

// specificOffsets reads Flink's "partition:0,offset:42;partition:1,offset:300".
func specificOffsets(o sql.Option) (map[int32]int64, error) {
	bad := func(part string) error {
		return sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be pairs like 'partition:0,offset:42' separated by ';', got '%s'", o.Key, part)
	}
	offsets := map[int32]int64{}
	for _, part := range strings.Split(o.Value, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		p, off, ok := strings.Cut(part, ",")
		ps, pok := strings.CutPrefix(strings.TrimSpace(p), "partition:")
		os, ook := strings.CutPrefix(strings.TrimSpace(off), "offset:")
		if !ok || !pok || !ook {
			return nil, bad(part)
		}
		pn, err1 := strconv.ParseInt(strings.TrimSpace(ps), 10, 32)
		on, err2 := strconv.ParseInt(strings.TrimSpace(os), 10, 64)
		if err1 != nil || err2 != nil || pn < 0 || on < 0 {
			return nil, bad(part)
		}
		offsets[int32(pn)] = on
	}
	if len(offsets) == 0 {
		return nil, bad(o.Value)
	}
	return offsets, nil
}

// checkKeys refuses an option the connector, its formats and its
// properties do not have: a source's or a sink's, since one table may be
// both.
func checkKeys(t *catalog.Table, formatKeys []string) error {
	known := append(connector.Keys(options, connector.Both), formatKeys...)
	for _, o := range t.Options {
		if connector.Contains(known, o.Key) || strings.HasPrefix(o.Key, propertiesPrefix) {
			continue
		}
		return connector.UnsupportedOption(o, Name, known)
	}
	return nil
}
