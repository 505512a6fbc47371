// Package archivetest generates a corpus of malicious Grimoire archives,
// each with the refusal it must meet under archive.Extract's default
// limits, for the archive package's tests and the CLI's.
package archivetest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/grimoire/archive"
	"github.com/wardhq/ward/internal/knowledge"
)

// Case is one malicious archive and the reason it must be refused with.
type Case struct {
	Name   string
	Path   string
	Reason archive.Reason
	// MaxOnDisk is the most bytes Extract may leave in the destination
	// when refusing it (the bombs' bound).
	MaxOnDisk int64
}

// Bomb is the uncompressed size of the bombs: 1 GiB of zeros.
const Bomb = 1 << 30

// Record returns a valid self-partition record numbered i.
func Record(i int) archive.Record {
	t := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	return archive.Record{
		Entry: knowledge.Entry{ID: fmt.Sprintf("entry-%d", i), Content: fmt.Sprintf("Pool %d rebalances within two blocks of a large swap.", i),
			Type: knowledge.TypeInsight, Confidence: 0.7, Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: t}},
		Partition: knowledge.PartitionSelf, Created: t,
	}
}

// file is one member of a generated archive.
type file struct {
	name string
	data []byte
	mode fs.FileMode // zip: 0 is a regular 0600 file
}

// Valid returns the members of a valid archive holding recs, manifest
// first, with extra members listed in the manifest too.
func Valid(tb testing.TB, recs []archive.Record, extra ...archive.Member) []archive.Member {
	tb.Helper()
	data, counts, err := archive.EncodeEntries(recs)
	if err != nil {
		tb.Fatal(err)
	}
	members := append([]archive.Member{{Name: archive.EntriesName, Data: data}}, extra...)
	ix := archive.Index{Format: archive.FormatVersion, Created: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), Entries: counts}
	for _, m := range members {
		ix.Files = append(ix.Files, archive.Sum(m.Name, m.Data))
	}
	idx, err := json.Marshal(&ix)
	if err != nil {
		tb.Fatal(err)
	}
	return append([]archive.Member{{Name: archive.IndexName, Data: idx}}, members...)
}

func files(ms []archive.Member) []file {
	out := make([]file, len(ms))
	for i, m := range ms {
		out[i] = file{name: m.Name, data: m.Data}
	}
	return out
}

// WriteZip writes a zip of fs to path, deflating each member.
func writeZip(tb testing.TB, path string, fs []file) {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range fs {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate}
		mode := f.mode
		if mode == 0 {
			mode = 0o600
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(f.data); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	writeFile(tb, path, buf.Bytes())
}

func writeFile(tb testing.TB, path string, b []byte) {
	tb.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// tarEntry is a tar header and its data.
type tarEntry struct {
	hdr  tar.Header
	data []byte
}

func reg(name string, data []byte) tarEntry {
	return tarEntry{hdr: tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: 0o600}, data: data}
}

func tarBytes(tb testing.TB, gz bool, es []tarEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var w io.Writer = &buf
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, e := range es {
		h := e.hdr
		if err := tw.WriteHeader(&h); err != nil {
			tb.Fatalf("tar header %q: %v", h.Name, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
	}
	return buf.Bytes()
}

func tarMembers(ms []archive.Member) []tarEntry {
	out := make([]tarEntry, len(ms))
	for i, m := range ms {
		out[i] = reg(m.Name, m.Data)
	}
	return out
}

// bombs are 1 GiB of zeros deflated (raw, for zip) and a tar.gz holding
// them, made once per process. Compressing a gigabyte would take a minute
// under the race detector, so both are built from repeated pieces: once
// the deflate window holds only zeros, every further flushed megabyte of
// zeros compresses to the same bytes; and a gzip file may be a series of
// members, each compressed alone.
var bombs = sync.OnceValues(func() (rawDeflate []byte, tarGz []byte) {
	const mb = 1 << 20
	zero := make([]byte, mb)
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestSpeed)
	var cuts []int
	for range 3 {
		fw.Write(zero)
		fw.Flush()
		cuts = append(cuts, raw.Len())
	}
	steady := slices.Clone(raw.Bytes()[cuts[1]:cuts[2]])
	if !bytes.Equal(steady, raw.Bytes()[cuts[0]:cuts[1]]) {
		panic("archivetest: deflating zeros did not reach a steady state")
	}
	fw.Close()
	final := slices.Clone(raw.Bytes()[cuts[2]:])
	deflated := slices.Clone(raw.Bytes()[:cuts[2]])
	for range Bomb/mb - 3 {
		deflated = append(deflated, steady...)
	}
	deflated = append(deflated, final...)

	member := func(data ...[]byte) []byte {
		var b bytes.Buffer
		gw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		for _, d := range data {
			gw.Write(d)
		}
		gw.Close()
		return b.Bytes()
	}
	var hdr bytes.Buffer
	tw := tar.NewWriter(&hdr)
	_ = tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "bomb.sqlite-shm", Size: Bomb, Mode: 0o600})
	tgz := member(hdr.Bytes(), zero)
	mid := member(zero)
	for range Bomb/mb - 2 {
		tgz = append(tgz, mid...)
	}
	tgz = append(tgz, member(zero, make([]byte, 1024))...) // the last megabyte and the tar trailer
	return deflated, tgz
})

// Corpus writes the malicious archives into dir and returns them, with a
// sentinel directory next to the destinations that traversal names aim at:
// it must stay empty.
func Corpus(tb testing.TB, dir string) (cases []Case, sentinel string) {
	tb.Helper()
	c := &corpus{tb: tb, dir: dir, sentinel: filepath.Join(dir, "sentinel")}
	if err := os.MkdirAll(c.sentinel, 0o700); err != nil {
		tb.Fatal(err)
	}
	c.good = Valid(tb, []archive.Record{Record(1), Record(2)})
	c.names()
	c.links()
	c.bombs()
	c.contents()
	c.secrets()
	c.corrupt()
	c.manifests()
	return c.cases, c.sentinel
}

// corpus writes the cases of Corpus into dir, family by family.
type corpus struct {
	tb       testing.TB
	dir      string
	sentinel string           // must stay empty
	good     []archive.Member // a valid archive's members
	cases    []Case
}

// add writes data as the case name.
func (c *corpus) add(name string, reason archive.Reason, data []byte) {
	p := filepath.Join(c.dir, name)
	writeFile(c.tb, p, data)
	c.cases = append(c.cases, Case{Name: name, Path: p, Reason: reason})
}

// addZip writes fs as the zip case name.
func (c *corpus) addZip(name string, reason archive.Reason, fs ...file) {
	p := filepath.Join(c.dir, name+".zip")
	writeZip(c.tb, p, fs)
	c.cases = append(c.cases, Case{Name: name, Path: p, Reason: reason})
}

// addTar writes es as the tar (gzipped with gz) case name.
func (c *corpus) addTar(name string, reason archive.Reason, gz bool, es ...tarEntry) {
	ext := ".tar"
	if gz {
		ext = ".tar.gz"
	}
	c.add(name+ext, reason, tarBytes(c.tb, gz, es))
}

// withGood is the valid archive's files and then extra.
func (c *corpus) withGood(extra ...file) []file { return append(files(c.good), extra...) }

// withGoodTar is the valid archive's tar members and then extra.
func (c *corpus) withGoodTar(extra ...tarEntry) []tarEntry {
	return append(tarMembers(c.good), extra...)
}

// names adds the cases of traversal and unsafe names.
func (c *corpus) names() {
	j := []byte(`{}`)
	// The sentinel relative to a destination dir/<anything>/: ../../sentinel.
	rel := "../../sentinel/pwned.json"
	c.addZip("zip-slip", archive.ReasonPathTraversal, c.withGood(file{name: rel, data: j})...)
	c.addTar("tar-slip", archive.ReasonPathTraversal, true, c.withGoodTar(reg(rel, j))...)
	c.addZip("zip-slip-inner", archive.ReasonPathTraversal, c.withGood(file{name: "a/../../../sentinel/pwned.json", data: j})...)
	c.addTar("absolute-tar", archive.ReasonPathTraversal, false, c.withGoodTar(reg(filepath.Join(c.sentinel, "abs.json"), j))...)
	c.addZip("absolute-zip", archive.ReasonPathTraversal, c.withGood(file{name: "/etc/x.json", data: j})...)
	c.addZip("drive-letter", archive.ReasonPathTraversal, c.withGood(file{name: `C:\x.json`, data: j})...)
	c.addTar("backslash-slip", archive.ReasonPathTraversal, true, c.withGoodTar(reg(`..\..\sentinel\pwned.json`, j))...)
	c.addZip("backslash-name", archive.ReasonBadName, c.withGood(file{name: `a\b.json`, data: j})...)
	c.addZip("nul-name", archive.ReasonBadName, c.withGood(file{name: "a\x00.json", data: j})...)
	c.addZip("newline-name", archive.ReasonBadName, c.withGood(file{name: "a\nb.json", data: j})...)
	c.addZip("long-name", archive.ReasonBadName, c.withGood(file{name: strings.Repeat("n", 300) + ".json", data: j})...)
	c.addZip("deep-name", archive.ReasonBadName, c.withGood(file{name: strings.Repeat("d/", 10) + "x.json", data: j})...)
	c.addTar("unclean-name", archive.ReasonBadName, false, c.withGoodTar(reg("./x.json", j))...)
}

// links adds the cases of links and special files.
func (c *corpus) links() {
	j := []byte(`{}`)
	link := func(t byte, name, target string) tarEntry {
		return tarEntry{hdr: tar.Header{Typeflag: t, Name: name, Linkname: target, Mode: 0o777}}
	}
	c.addTar("symlink-tar", archive.ReasonSymlink, false, c.withGoodTar(link(tar.TypeSymlink, "link.json", "/etc/passwd"))...)
	c.addZip("symlink-zip", archive.ReasonSymlink, c.withGood(file{name: "link.json", data: []byte(c.sentinel), mode: fs.ModeSymlink | 0o777})...)
	c.addTar("symlink-then-write", archive.ReasonSymlink, true,
		link(tar.TypeSymlink, "d", c.sentinel), reg("d/pwned.json", j))
	c.addTar("hardlink", archive.ReasonHardlink, false, c.withGoodTar(link(tar.TypeLink, "hard.json", archive.IndexName))...)
	c.addTar("hardlink-outside", archive.ReasonHardlink, false, link(tar.TypeLink, "passwd.json", "/etc/passwd"))
	c.addTar("char-device", archive.ReasonSpecialFile, false, tarEntry{hdr: tar.Header{Typeflag: tar.TypeChar, Name: "null.json", Devmajor: 1, Devminor: 3, Mode: 0o666}})
	c.addTar("fifo", archive.ReasonSpecialFile, false, tarEntry{hdr: tar.Header{Typeflag: tar.TypeFifo, Name: "fifo.json", Mode: 0o666}})
}

// bombs adds the cases of bombs: 1 GiB of zeros, too many files.
func (c *corpus) bombs() {
	j := []byte(`{}`)
	raw, tgz := bombs()
	c.add("tar-bomb.tar.gz", archive.ReasonTooLarge, tgz)
	crc := crc32.NewIEEE()
	zero := make([]byte, 1<<20)
	for range Bomb / len(zero) {
		crc.Write(zero)
	}
	zipRaw := func(name string, declared uint64) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc.Sum32(),
			CompressedSize64: uint64(len(raw)), UncompressedSize64: declared})
		if err != nil {
			c.tb.Fatal(err)
		}
		w.Write(raw)
		zw.Close()
		return buf.Bytes()
	}
	c.add("zip-bomb-honest.zip", archive.ReasonTooLarge, zipRaw("bomb.sqlite-shm", Bomb))
	c.add("zip-bomb-declared-small.zip", archive.ReasonTooLarge, zipRaw("bomb.sqlite-shm", 4<<20))
	c.cases[len(c.cases)-1].MaxOnDisk = 4 << 20
	c.addZip("zip-ratio-bomb", archive.ReasonCompressionRatio, file{name: "zeros.json", data: make([]byte, 64<<20)})
	many := make([]file, archive.DefaultMaxFiles+1)
	for i := range many {
		many[i] = file{name: fmt.Sprintf("f%05d.json", i), data: j}
	}
	c.addZip("too-many-files", archive.ReasonTooManyFiles, many...)
}

// contents adds the cases of forbidden types of content, nested archives, duplicates.
func (c *corpus) contents() {
	j := []byte(`{}`)
	c.addZip("ext-sh", archive.ReasonForbiddenExtension, c.withGood(file{name: "run.sh", data: []byte("echo hi\n")})...)
	c.addTar("ext-so", archive.ReasonForbiddenExtension, false, c.withGoodTar(reg("lib/evil.so", []byte("\x7fELF")))...)
	c.addZip("ext-exe", archive.ReasonForbiddenExtension, c.withGood(file{name: "setup.exe", data: []byte("MZ")})...)
	c.addZip("no-extension", archive.ReasonForbiddenExtension, c.withGood(file{name: "README", data: []byte("hi")})...)
	inner := tarBytes(c.tb, true, tarMembers(c.good))
	c.addZip("nested-by-name", archive.ReasonForbiddenExtension, c.withGood(file{name: "inner.tar.gz", data: inner})...)
	var innerZip bytes.Buffer
	if err := archive.Write(&innerZip, archive.Zip, archive.Index{Format: archive.FormatVersion}, nil); err != nil {
		c.tb.Fatal(err)
	}
	c.addTar("nested-zip-as-json", archive.ReasonNestedArchive, false, c.withGoodTar(reg("inner.json", innerZip.Bytes()))...)
	c.addZip("nested-gzip-as-jsonl", archive.ReasonNestedArchive, c.withGood(file{name: "more.jsonl", data: inner})...)
	c.addZip("elf-as-sqlite", archive.ReasonContentMismatch, c.withGood(file{name: "db.sqlite", data: []byte("\x7fELF\x02\x01\x01")})...)
	c.addZip("text-as-sqlite", archive.ReasonContentMismatch, c.withGood(file{name: "db.sqlite", data: []byte("not a database")})...)
	c.addZip("duplicate", archive.ReasonDuplicate, c.withGood(file{name: archive.EntriesName, data: j})...)
	c.addZip("duplicate-case", archive.ReasonDuplicate, c.withGood(file{name: "Entries.JSONL", data: j})...)
	c.addTar("file-as-dir", archive.ReasonDuplicate, false, reg("a.json", j), reg("a.json/b.json", j))
}

// secrets adds the cases of secrets in the members.
func (c *corpus) secrets() {
	hex64 := strings.Repeat("4f", 32)
	secret := func(name string, extra []byte) {
		c.addZip(name, archive.ReasonSecretFound, c.withGood(file{name: "extra.json", data: extra})...)
	}
	secret("private-key-field", []byte(`{"private_key": "0x`+hex64+`"}`))
	secret("key-in-context", []byte(`{"note": "wallet seed = 0x`+hex64+`"}`))
	secret("jwt", []byte(`{"token": "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl"}`))
	secret("pem", []byte("{\"k\": \"-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIG...\\n-----END EC PRIVATE KEY-----\"}"))
	secret("ward-token", []byte(`{"t": "ward_`+strings.Repeat("A", 43)+`"}`))
	secret("mnemonic-field", []byte(`{"mnemonic": "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"}`))
	jwtEntry := Record(3)
	jwtEntry.Content = "Use the session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZ2VudCJ9.abcdefghijkl for the API."
	c.addTar("jwt-in-entry", archive.ReasonSecretFound, true, tarMembers(Valid(c.tb, []archive.Record{Record(1), jwtEntry}))...)
}

// corrupt adds the cases of truncated, corrupt, unknown and encrypted containers.
func (c *corpus) corrupt() {
	var goodZip, goodTgz, goodTar bytes.Buffer
	for _, w := range []struct {
		buf *bytes.Buffer
		f   archive.Format
	}{{&goodZip, archive.Zip}, {&goodTgz, archive.TarGz}, {&goodTar, archive.Tar}} {
		if err := archive.Write(w.buf, w.f, archive.Index{Format: archive.FormatVersion, Entries: map[string]int{"self": 2}}, c.good[1:]); err != nil {
			c.tb.Fatal(err)
		}
	}
	c.add("truncated.zip", archive.ReasonCorrupt, goodZip.Bytes()[:goodZip.Len()/2])
	c.add("truncated.tar.gz", archive.ReasonCorrupt, goodTgz.Bytes()[:goodTgz.Len()/2])
	c.add("truncated.tar", archive.ReasonCorrupt, goodTar.Bytes()[:700])
	badSum := bytes.Clone(goodTar.Bytes())
	badSum[148] ^= 0x7f // the first header's checksum
	c.add("corrupt-tar-header.tar", archive.ReasonCorrupt, badSum)
	badCRC := bytes.Clone(goodZip.Bytes())
	if i := bytes.Index(badCRC, []byte("PK\x01\x02")); i > 0 {
		badCRC[i+16] ^= 0xff // the central directory's CRC-32 of the first member
	}
	c.add("corrupt-zip-crc.zip", archive.ReasonCorrupt, badCRC)
	c.add("trailing-data.tar", archive.ReasonCorrupt, append(bytes.Clone(goodTar.Bytes()), []byte("smuggled")...))
	c.add("not-an-archive.zip", archive.ReasonUnknownFormat, []byte(`{"entries": []}`))
	c.add("empty.tar", archive.ReasonUnknownFormat, nil)
	var enc bytes.Buffer
	ezw := zip.NewWriter(&enc)
	ew, _ := ezw.CreateHeader(&zip.FileHeader{Name: archive.EntriesName, Method: zip.Store, Flags: 0x1})
	ew.Write([]byte("ciphertext"))
	ezw.Close()
	c.add("encrypted.zip", archive.ReasonEncrypted, enc.Bytes())
}

// manifests adds the cases of manifest and entries that do not hold.
func (c *corpus) manifests() {
	j := []byte(`{}`)
	mutated := func(name string, reason archive.Reason, ms []archive.Member) {
		c.addZip(name, reason, files(ms)...)
	}
	tampered := Valid(c.tb, []archive.Record{Record(1), Record(2)})
	tampered[1].Data = bytes.Replace(tampered[1].Data, []byte("Pool 1"), []byte("Pool 9"), 1)
	mutated("hash-mismatch", archive.ReasonHashMismatch, tampered)
	mutated("no-manifest", archive.ReasonManifest, c.good[1:])
	mutated("bad-manifest", archive.ReasonManifest, append([]archive.Member{{Name: archive.IndexName, Data: []byte(`{"format":1,`)}}, c.good[1:]...))
	mutated("unlisted-file", archive.ReasonUnlisted, append(bytes2(c.good), archive.Member{Name: "extra.json", Data: j}))
	wrongCount := Valid(c.tb, []archive.Record{Record(1)})
	wrongCount[0].Data = bytes.Replace(wrongCount[0].Data, []byte(`"self":1`), []byte(`"self":5`), 1)
	mutated("count-mismatch", archive.ReasonManifest, wrongCount)
	lineEntry := Record(4)
	lineEntry.Content = prose(archive.MaxLine + 10)
	long, _, _ := archive.EncodeEntries([]archive.Record{lineEntry})
	mutated("huge-line", archive.ReasonLineTooLong, validRaw(c.tb, long, 1))
	c.cases[len(c.cases)-1].MaxOnDisk = 2 << 20
	bad := Record(5)
	bad.Confidence = 2
	badLine, _, _ := archive.EncodeEntries([]archive.Record{Record(1), bad})
	mutated("invalid-entry", archive.ReasonInvalidEntry, validRaw(c.tb, badLine, 2))
	mutated("unknown-field", archive.ReasonInvalidEntry, validRaw(c.tb, []byte(`{"id":"x","content":"c","entry_type":"insight","source":{"provenance":"self","timestamp":"2026-01-01T00:00:00Z"},"confidence":0.5,"partition":"self","created":"2026-01-01T00:00:00Z","admin":true}`+"\n"), 1))
	dup, _, _ := archive.EncodeEntries([]archive.Record{Record(1), Record(1)})
	mutated("duplicate-id", archive.ReasonInvalidEntry, validRaw(c.tb, dup, 2))
	quarantined := Record(6)
	quarantined.Partition = knowledge.PartitionQuarantine
	q, _, _ := archive.EncodeEntries([]archive.Record{quarantined})
	mutated("quarantine-partition", archive.ReasonInvalidEntry, validRaw(c.tb, q, 1))
	mutated("not-json-lines", archive.ReasonInvalidEntry, validRaw(c.tb, []byte("hello\n"), 1))
}

func bytes2(ms []archive.Member) []archive.Member { return append([]archive.Member(nil), ms...) }

// validRaw returns members whose entries.jsonl is data, with a manifest
// that matches it and declares n self entries.
func validRaw(tb testing.TB, data []byte, n int) []archive.Member {
	tb.Helper()
	ix := archive.Index{Format: archive.FormatVersion, Created: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		Entries: map[string]int{"self": n}, Files: []archive.File{archive.Sum(archive.EntriesName, data)}}
	idx, err := json.Marshal(&ix)
	if err != nil {
		tb.Fatal(err)
	}
	return []archive.Member{{Name: archive.IndexName, Data: idx}, {Name: archive.EntriesName, Data: data}}
}

// prose returns n bytes of lower-case letters and spaces that compress
// about as well as text (not past the zip ratio cap).
func prose(n int) string {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = "abcdefghijklmnopqrstuvwxyz      "[x%32]
	}
	return string(b)
}
