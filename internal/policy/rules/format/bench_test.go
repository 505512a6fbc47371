package format

import "testing"

func BenchmarkURL(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := URL("https://api.conway.tech:8443/v1/x402/pay?amount=100&to=0xabc#frag"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Host("https://api.conway.tech:8443/v1/x402/pay?amount=100"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDomainMatch(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !DomainMatch("a.b.api.conway.tech", "*.conway.tech") {
			b.Fatal("no match")
		}
	}
}

func BenchmarkAddress(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNPMPackage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := NPMPackage("@types/node@^20.11.5"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCron(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Cron("0 9-17/2 * JAN-JUN MON-FRI"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkShellSafe(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := ShellSafe("report-2024.txt"); err != nil {
			b.Fatal(err)
		}
	}
}
