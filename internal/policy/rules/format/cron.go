package format

import (
	"errors"
	"fmt"
	"strings"
)

const maxCron = 256

var (
	errCronEmpty   = errors.New("cron expression is empty")
	errCronTooLong = errors.New("cron expression is longer than 256 bytes")
	errCronReboot  = errors.New("the reboot macro is not allowed: it runs at boot, not on a schedule")
	errCronMacro   = errors.New("unknown cron macro; use @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly")
	errCronAt      = errors.New("cron expression may only have '@' at the start of a macro")
)

// cronMacros are the schedule macros Cron accepts, as Vixie cron and its
// descendants spell them (lower case only).
var cronMacros = [...]string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

var (
	monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	dayNames   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
)

// cronSpec describes one field of a cron expression.
type cronSpec struct {
	name     string
	min, max int
	names    []string // names[i] stands for min+i
}

var (
	cronSecond = cronSpec{name: "second", min: 0, max: 59}
	cronFields = [...]cronSpec{
		{name: "minute", min: 0, max: 59},
		{name: "hour", min: 0, max: 23},
		{name: "day-of-month", min: 1, max: 31},
		{name: "month", min: 1, max: 12, names: monthNames},
		{name: "day-of-week", min: 0, max: 7, names: dayNames},
	}
)

// Cron validates a cron schedule: five fields (minute hour day-of-month
// month day-of-week), or six with a leading seconds field, separated by
// spaces or tabs; or one of the macros @yearly, @annually, @monthly,
// @weekly, @daily, @midnight and @hourly (lower case). @reboot is rejected,
// since it runs at boot rather than on a schedule.
//
// A field is a comma-separated list of items; an item is '*', a value or an
// ascending range a-b, optionally followed by a step /n with n from 1 to
// the field's maximum ("*/15", "9-17/2", "5/10" meaning 5 to the maximum).
// Values are decimal within the field's bounds (second and minute 0-59,
// hour 0-23, day-of-month 1-31, month 1-12, day-of-week 0-7 with 0 and 7
// both Sunday) or, for month and day-of-week, the names JAN-DEC and
// SUN-SAT in any case. Quartz and vendor extensions (?, L, W, #, @every)
// and any other character are rejected, notably line breaks, which would
// let a value add a second crontab line.
func Cron(s string) error {
	switch {
	case s == "":
		return errCronEmpty
	case len(s) > maxCron:
		return errCronTooLong
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isAlnum(c) || c == '*' || c == '/' || c == ',' || c == '-' || c == ' ' || c == '\t' || c == '@':
		case c == '\n' || c == '\r':
			return fmt.Errorf("cron expression has a line break at offset %d", i)
		default:
			return fmt.Errorf("cron expression has %s at offset %d", charKind(c), i)
		}
	}

	expr := strings.Trim(s, " \t")
	if strings.HasPrefix(expr, "@") {
		return cronMacro(expr)
	}
	if strings.IndexByte(expr, '@') >= 0 {
		return errCronAt
	}

	var fields [7]string
	n := 0
	for f := range strings.FieldsFuncSeq(expr, func(r rune) bool { return r == ' ' || r == '\t' }) {
		if n == len(fields) {
			break
		}
		fields[n] = f
		n++
	}
	switch n {
	case 5:
		for i, spec := range cronFields {
			if err := cronField(fields[i], spec); err != nil {
				return err
			}
		}
	case 6:
		if err := cronField(fields[0], cronSecond); err != nil {
			return err
		}
		for i, spec := range cronFields {
			if err := cronField(fields[i+1], spec); err != nil {
				return err
			}
		}
	default:
		if n == len(fields) {
			return errors.New("cron expression must have 5 fields, or 6 with seconds; it has more than 6")
		}
		return fmt.Errorf("cron expression must have 5 fields, or 6 with seconds; it has %d", n)
	}
	return nil
}

func cronMacro(expr string) error {
	if expr == "@reboot" {
		return errCronReboot
	}
	for _, m := range cronMacros {
		if expr == m {
			return nil
		}
	}
	return errCronMacro
}

// cronField validates one field against spec.
func cronField(f string, spec cronSpec) error {
	for item := range strings.SplitSeq(f, ",") {
		if item == "" {
			return fmt.Errorf("cron %s field has an empty list item", spec.name)
		}
		base, step, hasStep := strings.Cut(item, "/")
		if hasStep {
			n, ok := cronNumber(step)
			if !ok || n < 1 || n > spec.max {
				return fmt.Errorf("cron %s field step must be a number from 1 to %d", spec.name, spec.max)
			}
		}
		if base == "*" {
			continue
		}
		lo, hi, isRange := strings.Cut(base, "-")
		from, err := cronValue(lo, spec)
		if err != nil {
			return err
		}
		if !isRange {
			continue
		}
		to, err := cronValue(hi, spec)
		if err != nil {
			return err
		}
		if from > to {
			return fmt.Errorf("cron %s field range must be ascending", spec.name)
		}
	}
	return nil
}

// cronValue parses a number or name of the field spec.
func cronValue(v string, spec cronSpec) (int, error) {
	if v == "" {
		return 0, fmt.Errorf("cron %s field has an empty value", spec.name)
	}
	if n, ok := cronNumber(v); ok {
		if n < spec.min || n > spec.max {
			return 0, fmt.Errorf("cron %s field value is out of range %d-%d", spec.name, spec.min, spec.max)
		}
		return n, nil
	}
	for i, name := range spec.names {
		if strings.EqualFold(v, name) {
			return spec.min + i, nil
		}
	}
	if spec.names != nil {
		return 0, fmt.Errorf("cron %s field value must be a number or a three-letter name", spec.name)
	}
	return 0, fmt.Errorf("cron %s field value must be a number or '*'", spec.name)
}

// cronNumber parses a short decimal number; longer digit strings than any
// field can hold are reported as out of range by being returned large.
func cronNumber(s string) (int, bool) {
	if !allDigits(s) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1000 {
			return n, true
		}
	}
	return n, true
}
