package format

import (
	"strings"
	"testing"
)

var cronCases = []formatCase{
	{"every 15 minutes", "*/15 * * * *", nil},
	{"business hours", "0 9-17 * * MON-FRI", nil},
	{"daily macro", "@daily", nil},
	{"yearly macro", "@yearly", nil},
	{"annually macro", "@annually", nil},
	{"monthly macro", "@monthly", nil},
	{"weekly macro", "@weekly", nil},
	{"midnight macro", "@midnight", nil},
	{"hourly macro", "@hourly", nil},
	{"every minute", "* * * * *", nil},
	{"new year", "0 0 1 1 *", nil},
	{"sunday zero", "0 0 * * 0", nil},
	{"sunday seven", "0 0 * * 7", nil},
	{"lower-case day", "0 0 * * sun", nil},
	{"month names list", "0 0 1 JAN,jul *", nil},
	{"month name range", "0 0 1 jan-Mar *", nil},
	{"every two hours", "0 */2 * * *", nil},
	{"start and step", "5/10 * * * *", nil},
	{"range and step", "0-59/5 * * * *", nil},
	{"name range and step", "0 0 * * MON-FRI/2", nil},
	{"list", "1,2,3 * * * *", nil},
	{"list of ranges", "0,30 9-12,14-17 * * 1-5", nil},
	{"single value range", "5-5 * * * *", nil},
	{"leap day", "0 0 29 2 *", nil},
	{"max values", "59 23 31 12 7", nil},
	{"leading zeros", "05 09 * * *", nil},
	{"six fields", "30 0 * * * *", nil},
	{"six fields seconds step", "*/10 * * * * *", nil},
	{"extra spaces", "  0  0 * * *  ", nil},
	{"tabs", "0\t0\t*\t*\t*", nil},
	{"max step", "*/59 * * * *", nil},

	{"empty", "", errCronEmpty},
	{"blank", "   ", errAny},
	{"minute 60", "60 * * * *", errAny},
	{"four fields", "* * * *", errAny},
	{"seven fields", "* * * * * * *", errAny},
	{"command appended", "* * * * * rm -rf /", errAny},
	{"command as sixth field", "* * * * * /bin/evil", errAny},
	{"zero step", "*/0 * * * *", errAny},
	{"descending range", "5-1 * * * *", errAny},
	{"reboot", "@reboot", errCronReboot},
	{"every", "@every 5m", errCronMacro},
	{"upper-case macro", "@DAILY", errCronMacro},
	{"macro with extra", "@daily rm", errCronMacro},
	{"unknown macro", "@fortnightly", errCronMacro},
	{"at inside", "0 0 @ * *", errCronAt},
	{"newline injection", "0 0 * * *\n* * * * * evil", errAny},
	{"carriage return", "0 0 * * *\r", errAny},
	{"nul", "0 0 * * *\x00", errAny},
	{"quartz question mark", "0 0 ? * *", errAny},
	{"quartz last", "0 0 L * *", errAny},
	{"quartz weekday", "0 0 15W * *", errAny},
	{"quartz nth", "0 0 * * 1#2", errAny},
	{"shell", "$(id) * * * *", errAny},
	{"day of month zero", "0 0 0 * *", errAny},
	{"day of month 32", "0 0 32 * *", errAny},
	{"hour 24", "0 24 * * *", errAny},
	{"month 13", "0 0 * 13 *", errAny},
	{"month zero", "0 0 * 0 *", errAny},
	{"day of week 8", "0 0 * * 8", errAny},
	{"second 60", "60 0 * * * *", errAny},
	{"unknown month", "0 0 * FOO *", errAny},
	{"long day name", "0 0 * * MONDAY", errAny},
	{"day name in month", "0 0 * MON *", errAny},
	{"month name in day of month", "0 0 JAN * *", errAny},
	{"name in minute", "MON * * * *", errAny},
	{"weekend wraps", "0 0 * * SAT-SUN", errAny},
	{"empty list item", "1,,2 * * * *", errAny},
	{"leading comma", ",1 * * * *", errAny},
	{"trailing comma", "1, * * * *", errAny},
	{"open range", "1- * * * *", errAny},
	{"negative", "-1 * * * *", errAny},
	{"empty step", "*/ * * * *", errAny},
	{"step too large", "*/60 * * * *", errAny},
	{"double step", "1/2/3 * * * *", errAny},
	{"star range", "*-5 * * * *", errAny},
	{"name step", "*/MON * * * *", errAny},
	{"three part range", "1-2-3 * * * *", errAny},
	{"huge number", "99999999999999999999 * * * *", errAny},
	{"too long", strings.Repeat("1,", 200) + "1 * * * *", errCronTooLong},
}

func TestCron(t *testing.T) {
	runCases(t, Cron, cronCases)
}

func FuzzCron(f *testing.F) {
	seedCases(f, cronCases)
	f.Fuzz(func(t *testing.T, s string) {
		err := Cron(s)
		checkMessage(t, s, err, fuzzMinEcho)
		if err != nil {
			return
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; !isAlnum(c) && strings.IndexByte("*/,- \t@", c) < 0 {
				t.Fatalf("Cron(%q) = nil with byte %q at offset %d", s, c, i)
			}
		}
		fields := strings.Fields(s)
		switch {
		case len(fields) == 1 && strings.HasPrefix(fields[0], "@"):
			if fields[0] == "@reboot" {
				t.Fatalf("Cron(%q) = nil", s)
			}
		case len(fields) == 5 || len(fields) == 6:
			for _, f := range fields {
				for _, item := range strings.Split(f, ",") {
					if _, step, ok := strings.Cut(item, "/"); ok && strings.Trim(step, "0") == "" {
						t.Fatalf("Cron(%q) = nil with a zero step", s)
					}
				}
			}
		default:
			t.Fatalf("Cron(%q) = nil with %d fields", s, len(fields))
		}
	})
}
