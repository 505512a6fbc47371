package archive_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/wardhq/ward/internal/grimoire/archive"
	"github.com/wardhq/ward/internal/grimoire/archive/archivetest"
	"github.com/wardhq/ward/internal/knowledge"
)

// diskUsage returns the bytes of regular files under dir.
func diskUsage(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMaliciousCorpus(t *testing.T) {
	dir := t.TempDir()
	cases, sentinel := archivetest.Corpus(t, dir)
	if len(cases) < 30 {
		t.Fatalf("corpus of %d archives, want at least 30", len(cases))
	}
	byReason := map[archive.Reason]int{}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			dest := filepath.Join(dir, "dest", fmt.Sprint(i), "out")
			if err := os.MkdirAll(dest, 0o700); err != nil {
				t.Fatal(err)
			}
			_, _, err := archive.Load(t.Context(), c.Path, dest, archive.Limits{})
			if got := archive.Refusal(err); got != c.Reason {
				t.Fatalf("Load() = %v, want refusal %s", err, c.Reason)
			}
			if !strings.Contains(err.Error(), string(c.Reason)) {
				t.Errorf("message %q does not name %s", err, c.Reason)
			}
			bound := max(c.MaxOnDisk, 64<<10)
			if n := diskUsage(t, dest); n > bound {
				t.Errorf("%d bytes left on disk, want at most %d", n, bound)
			}
			byReason[c.Reason]++
		})
	}
	ents, err := os.ReadDir(sentinel)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Errorf("sentinel directory holds %d entries, want none", len(ents))
	}
	// Nothing appeared next to the destinations but the archives.
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if filepath.Dir(rel) != "." && !strings.HasPrefix(rel, "dest"+string(filepath.Separator)) {
			t.Errorf("file %s written outside a destination", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d malicious archives refused: %v", len(cases), byReason)
}

func TestRoundTrip(t *testing.T) {
	recs := []archive.Record{archivetest.Record(1), archivetest.Record(2)}
	ext := archivetest.Record(3)
	ext.Partition = knowledge.PartitionExternal
	ext.Source = knowledge.Source{Provenance: knowledge.Purchased, Agent: "0x" + strings.Repeat("ab", 20),
		Signature: bytes.Repeat([]byte{7}, knowledge.SignatureSize), Anchor: "0x" + strings.Repeat("cd", 32), Timestamp: ext.Created}
	ext.Embedding = []float32{0.25, -0.5}
	recs = append(recs, ext)
	data, counts, err := archive.EncodeEntries(recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []archive.Format{archive.Zip, archive.TarGz, archive.Tar} {
		t.Run(f.String(), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "g."+f.String())
			var buf bytes.Buffer
			ix := archive.Index{Format: archive.FormatVersion, WardVersion: "test", Created: time.Now().UTC(), Entries: counts}
			if err := archive.Write(&buf, f, ix, []archive.Member{{Name: archive.EntriesName, Data: data}}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(dir, "out")
			if err := os.Mkdir(dest, 0o700); err != nil {
				t.Fatal(err)
			}
			gotIx, got, err := archive.Load(t.Context(), p, dest, archive.Limits{})
			if err != nil {
				t.Fatalf("Load() = %v", err)
			}
			if gotIx.Total() != len(recs) || gotIx.WardVersion != "test" {
				t.Errorf("index = %+v", gotIx)
			}
			if len(got) != len(recs) {
				t.Fatalf("%d records, want %d", len(got), len(recs))
			}
			for i := range recs {
				if !reflect.DeepEqual(got[i], recs[i]) {
					t.Errorf("record %d = %+v, want %+v", i, got[i], recs[i])
				}
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]archive.Format{"a.zip": archive.Zip, "a.TAR.GZ": archive.TarGz, "a.tgz": archive.TarGz, "a.tar": archive.Tar, "a.rar": 0} {
		got, err := archive.FormatOf(name)
		if got != want || (err != nil) != (want == 0) {
			t.Errorf("FormatOf(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name, want string
		reason     archive.Reason
	}{
		{"entries.jsonl", "entries.jsonl", ""},
		{"dir/", "dir", ""},
		{"a/b/c.json", "a/b/c.json", ""},
		{"x..json", "", archive.ReasonPathTraversal},
		{"../x.json", "", archive.ReasonPathTraversal},
		{"a/../../x.json", "", archive.ReasonPathTraversal},
		{"/etc/passwd", "", archive.ReasonPathTraversal},
		{`C:\x.json`, "", archive.ReasonPathTraversal},
		{`c:x.json`, "", archive.ReasonPathTraversal},
		{`\\server\share\x.json`, "", archive.ReasonPathTraversal},
		{`..\x.json`, "", archive.ReasonPathTraversal},
		{`a\b.json`, "", archive.ReasonBadName},
		{"ab:c.json", "", archive.ReasonBadName},
		{"a:b.json", "", archive.ReasonPathTraversal}, // drive A, relative
		{"a\x00b.json", "", archive.ReasonBadName},
		{"a\x7fb.json", "", archive.ReasonBadName},
		{"\xff.json", "", archive.ReasonBadName},
		{"", "", archive.ReasonBadName},
		{".", "", archive.ReasonBadName},
		{"./a.json", "", archive.ReasonBadName},
		{"a//b.json", "", archive.ReasonBadName},
		{strings.Repeat("a", 256), "", archive.ReasonBadName},
		{strings.Repeat("d/", 8) + "x.json", "", archive.ReasonBadName},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q", tt.name), func(t *testing.T) {
			got, err := archive.CheckName(tt.name, archive.Limits{})
			if r := archive.Refusal(err); r != tt.reason || got != tt.want {
				t.Errorf("CheckName() = %q, %v; want %q, %q", got, err, tt.want, tt.reason)
			}
		})
	}
}

func TestScanSecrets(t *testing.T) {
	hex64 := strings.Repeat("a1", 32)
	tests := []struct{ name, in, want string }{
		{"pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIE", "pem_private_key"},
		{"openssh", "-----BEGIN OPENSSH PRIVATE KEY-----", "pem_private_key"},
		{"pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----", "pem_private_key"},
		{"jwt", `"eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2FjY291bnRzIn0.sig"`, "jwt"},
		{"ward token", "Bearer ward_" + strings.Repeat("x", 43), "ward_token"},
		{"private key hex", `{"privateKey":"0x` + hex64 + `"}`, "wallet_private_key"},
		{"signer key", `signer_key = ` + hex64, "wallet_private_key"},
		{"id_token field", `{"id_token": "x"}`, "key_field"},
		{"seed phrase field", `{"seed_phrase": "abandon ..."}`, "key_field"},
		{"anchor is a hash", `{"on_chain_anchor":"0x` + hex64 + `"}`, ""},
		{"tx hash in prose", `the swap 0x` + hex64 + ` reverted`, ""},
		{"public certificate", "-----BEGIN CERTIFICATE-----", ""},
		{"word token", `{"content": "private keys must never be shared"}`, ""},
		{"metric name", "ward_api_requests_total", ""},
		{"plain eyJ", "eyJ alone", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := archive.ScanSecrets([]byte(tt.in)); got != tt.want {
				t.Errorf("ScanSecrets(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// A secret straddling the scanner's 1 MiB windows is still found.
	long := append(bytes.Repeat([]byte(" "), 1<<20-10), []byte("-----BEGIN EC PRIVATE KEY-----")...)
	if got := archive.ScanSecrets(long); got != "pem_private_key" {
		t.Errorf("straddling PEM header: %q", got)
	}
}

// A symlink already in the destination (a racing attacker) never redirects
// a write.
func TestPreexistingSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.jsonl")
	if err := os.WriteFile(target, []byte("original"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		member string
	}{{"final component", archive.EntriesName}, {"parent", "sub/target.json"}} {
		t.Run(tc.name, func(t *testing.T) {
			dest := t.TempDir()
			if err := os.Symlink(target, filepath.Join(dest, archive.EntriesName)); err != nil {
				t.Skip("no symlinks:", err)
			}
			if err := os.Symlink(dir, filepath.Join(dest, "sub")); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, tc.name+".zip")
			var buf bytes.Buffer
			if err := archive.Write(&buf, archive.Zip, archive.Index{Format: archive.FormatVersion}, []archive.Member{{Name: tc.member, Data: []byte("{}\n")}}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := archive.Extract(t.Context(), p, dest, archive.Limits{})
			var re *archive.RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Extract() = %v, want a refusal", err)
			}
			if re.Reason != archive.ReasonSymlink && re.Reason != archive.ReasonPathTraversal {
				t.Errorf("reason %s, want symlink or path_traversal", re.Reason)
			}
			if b, _ := os.ReadFile(target); string(b) != "original" {
				t.Errorf("target rewritten: %q", b)
			}
			if _, err := os.Stat(filepath.Join(dir, "target.json")); err == nil {
				t.Error("a file was written through the symlinked parent")
			}
		})
	}
}

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	members := []archive.Member{{Name: archive.EntriesName, Data: bytes.Repeat([]byte("{}\n"), 400)},
		{Name: "b.json", Data: bytes.Repeat([]byte(" "), 900)}}
	tests := []struct {
		name   string
		lim    archive.Limits
		reason archive.Reason
	}{
		{"total", archive.Limits{MaxTotal: 1500}, archive.ReasonTooLarge},
		{"files", archive.Limits{MaxFiles: 2}, archive.ReasonTooManyFiles},
		{"extension", archive.Limits{Extensions: []string{".jsonl"}}, archive.ReasonForbiddenExtension},
		{"name", archive.Limits{MaxName: 6}, archive.ReasonBadName},
		{"defaults", archive.Limits{}, ""},
	}
	for _, f := range []archive.Format{archive.Zip, archive.TarGz} {
		p := filepath.Join(dir, "a."+f.String())
		var buf bytes.Buffer
		if err := archive.Write(&buf, f, archive.Index{Format: archive.FormatVersion}, members); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			t.Run(f.String()+"/"+tt.name, func(t *testing.T) {
				dest := t.TempDir()
				_, err := archive.Extract(t.Context(), p, dest, tt.lim)
				if got := archive.Refusal(err); got != tt.reason || (tt.reason == "" && err != nil) {
					t.Fatalf("Extract() = %v, want %q", err, tt.reason)
				}
				if tt.lim.MaxTotal > 0 {
					if n := diskUsage(t, dest); n > tt.lim.MaxTotal {
						t.Errorf("%d bytes on disk, above the limit %d", n, tt.lim.MaxTotal)
					}
				}
			})
		}
	}
}

func TestCanceled(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.zip")
	var buf bytes.Buffer
	if err := archive.Write(&buf, archive.Zip, archive.Index{Format: archive.FormatVersion}, []archive.Member{{Name: "a.json", Data: []byte("{}")}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := archive.Extract(ctx, p, t.TempDir(), archive.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Extract() = %v, want context.Canceled", err)
	}
}

// benchArchive writes an archive of about 32 MiB of entries.
func benchArchive(b *testing.B, f archive.Format) string {
	b.Helper()
	var recs []archive.Record
	for i := range 40_000 {
		r := archivetest.Record(i)
		r.Embedding = make([]float32, 64)
		for j := range r.Embedding {
			r.Embedding[j] = float32(i*j%97) / 97
		}
		recs = append(recs, r)
	}
	data, counts, err := archive.EncodeEntries(recs)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := archive.Write(&buf, f, archive.Index{Format: archive.FormatVersion, Entries: counts}, []archive.Member{{Name: archive.EntriesName, Data: data}}); err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "bench."+f.String())
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	return p
}

// BenchmarkExtract measures extraction with every check (names, limits,
// hashing, the secret scan); MB/s is of uncompressed entries.
func BenchmarkExtract(b *testing.B) {
	for _, f := range []archive.Format{archive.Zip, archive.TarGz, archive.Tar} {
		b.Run(f.String(), func(b *testing.B) {
			p := benchArchive(b, f)
			root := b.TempDir()
			i := 0
			for b.Loop() {
				dest := filepath.Join(root, fmt.Sprint(i))
				i++
				if err := os.Mkdir(dest, 0o700); err != nil {
					b.Fatal(err)
				}
				if _, err := archive.Extract(b.Context(), p, dest, archive.Limits{}); err != nil {
					b.Fatal(err)
				}
				os.RemoveAll(dest)
			}
		})
	}
}

// BenchmarkLoad adds the manifest check and strict parsing of every entry.
func BenchmarkLoad(b *testing.B) {
	p := benchArchive(b, archive.TarGz)
	root := b.TempDir()
	i := 0
	for b.Loop() {
		dest := filepath.Join(root, fmt.Sprint(i))
		i++
		if err := os.Mkdir(dest, 0o700); err != nil {
			b.Fatal(err)
		}
		if _, _, err := archive.Load(b.Context(), p, dest, archive.Limits{}); err != nil {
			b.Fatal(err)
		}
		os.RemoveAll(dest)
	}
}

// addExtractSeeds adds a small valid archive of each format to f's corpus.
func addExtractSeeds(f *testing.F) {
	recs := []archive.Record{archivetest.Record(1)}
	data, counts, err := archive.EncodeEntries(recs)
	if err != nil {
		f.Fatal(err)
	}
	for _, format := range []archive.Format{archive.Zip, archive.TarGz, archive.Tar} {
		var buf bytes.Buffer
		if err := archive.Write(&buf, format, archive.Index{Format: archive.FormatVersion, Entries: counts},
			[]archive.Member{{Name: archive.EntriesName, Data: data}, {Name: "d/x.json", Data: []byte(`{"a":1}`)}}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
}

// memDest is an extraction's destination in memory. It creates as an
// os.Root does (a parent must exist and be a directory, an existing name
// is never replaced) and records every name that is not local, which an
// os.Root would have refused as leaving it.
type memDest struct {
	fs      fstest.MapFS
	escaped []string
}

var _ archive.Destination = (*memDest)(nil)

func (d *memDest) local(op, name string) error {
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		d.escaped = append(d.escaped, name)
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return nil
}

func (d *memDest) MkdirAll(name string, _ fs.FileMode) error {
	if err := d.local("mkdir", name); err != nil {
		return err
	}
	for p := name; p != "."; p = path.Dir(p) {
		if f, ok := d.fs[p]; ok && !f.Mode.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
		}
	}
	for p := name; p != "."; p = path.Dir(p) {
		if _, ok := d.fs[p]; !ok {
			d.fs[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o700}
		}
	}
	return nil
}

func (d *memDest) Create(name string) (io.WriteCloser, error) {
	if err := d.local("open", name); err != nil {
		return nil, err
	}
	if _, ok := d.fs[name]; ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	}
	if dir := path.Dir(name); dir != "." {
		if f, ok := d.fs[dir]; !ok || !f.Mode.IsDir() {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	f := &fstest.MapFile{Mode: 0o600}
	d.fs[name] = f
	return memFile{f}, nil
}

func (d *memDest) Lstat(name string) (fs.FileInfo, error) { return d.fs.Lstat(name) }

type memFile struct{ f *fstest.MapFile }

func (w memFile) Write(p []byte) (int, error) {
	w.f.Data = append(w.f.Data, p...)
	return len(p), nil
}

func (memFile) Close() error { return nil }

// FuzzExtract feeds arbitrary bytes to the extractor, writing to memory
// (thousands of inputs a second; on disk, a directory per input allowed
// about a hundred): it never panics, creates nothing outside the
// destination, refuses with a reason or accepts only what is within the
// limits, and its manifest is what it wrote. FuzzExtractDisk runs the
// same inputs through Extract and a real os.Root.
func FuzzExtract(f *testing.F) {
	addExtractSeeds(f)
	lim := archive.Limits{MaxTotal: 1 << 20, MaxFiles: 64}
	f.Fuzz(func(t *testing.T, b []byte) {
		dst := &memDest{fs: fstest.MapFS{}}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		m, err := archive.ExtractTo(ctx, b, dst, lim)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("ExtractTo took %v: %v", d, err)
		}
		if len(dst.escaped) > 0 {
			t.Fatalf("created %q, outside the destination", dst.escaped)
		}
		var total int64
		for _, f := range dst.fs {
			total += int64(len(f.Data))
		}
		if total > lim.MaxTotal {
			t.Fatalf("%d bytes written, above %d", total, lim.MaxTotal)
		}
		if err != nil {
			if archive.Refusal(err) == "" {
				t.Fatalf("ExtractTo() = %v, not a refusal", err)
			}
			return
		}
		for _, f := range m.Files {
			if _, err := archive.CheckName(f.Name, lim); err != nil {
				t.Errorf("accepted name %q: %v", f.Name, err)
			}
			got, ok := dst.fs[f.Name]
			if !ok {
				t.Errorf("manifest lists %q, which was not written", f.Name)
				continue
			}
			if sum := sha256.Sum256(got.Data); int64(len(got.Data)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%q: manifest says %d bytes, %s; wrote %d bytes, %x", f.Name, f.Size, f.SHA256, len(got.Data), sum)
			}
		}
	})
}

// FuzzExtractDisk is FuzzExtract through Extract itself, on disk: a file
// and a directory per input, so slow to fuzz, but it checks what memory
// cannot, that the os.Root confines the writes.
func FuzzExtractDisk(f *testing.F) {
	addExtractSeeds(f)
	lim := archive.Limits{MaxTotal: 1 << 20, MaxFiles: 64}
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "in")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		dest := filepath.Join(dir, "out")
		if err := os.Mkdir(dest, 0o700); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		m, err := archive.Extract(ctx, p, dest, lim)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Extract took %v: %v", d, err)
		}
		if n := diskUsage(t, dest); n > lim.MaxTotal {
			t.Fatalf("%d bytes on disk, above %d", n, lim.MaxTotal)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 2 {
			t.Fatalf("%d entries next to the destination, want 2", len(ents))
		}
		if err != nil {
			if archive.Refusal(err) == "" {
				t.Fatalf("Extract() = %v, not a refusal", err)
			}
			return
		}
		for _, f := range m.Files {
			if _, err := archive.CheckName(f.Name, lim); err != nil {
				t.Errorf("accepted name %q: %v", f.Name, err)
			}
		}
	})
}

// FuzzReadEntries: never panics, and every record accepted is valid.
func FuzzReadEntries(f *testing.F) {
	data, _, err := archive.EncodeEntries([]archive.Record{archivetest.Record(1), archivetest.Record(2)})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("{}\n"))
	f.Add([]byte(`{"id":"x","partition":"quarantine"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := archive.ReadEntries(bytes.NewReader(b))
		if err != nil {
			if archive.Refusal(err) == "" {
				t.Fatalf("ReadEntries() = %v, not a refusal", err)
			}
			return
		}
		for _, r := range recs {
			if err := r.Validate(); err != nil || r.ID == "" {
				t.Errorf("accepted invalid record %+v: %v", r, err)
			}
		}
	})
}
