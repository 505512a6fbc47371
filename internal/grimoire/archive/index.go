package archive

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// Names of the files of a Grimoire archive, and its format version.
const (
	IndexName     = "manifest.json"
	EntriesName   = "entries.jsonl"
	FormatVersion = 1
	// MaxIndex is the largest manifest.json read.
	MaxIndex = 1 << 20
	// MaxLine is the longest entries.jsonl line, newline excluded.
	MaxLine = 1 << 20
	// MaxEntries is the most entries an archive may hold.
	MaxEntries = 100_000
)

// Index is manifest.json: what an archive declares about itself.
type Index struct {
	Format      int       `json:"format"` // FormatVersion
	WardVersion string    `json:"ward_version,omitempty"`
	Created     time.Time `json:"created"`
	// Entries counts entries.jsonl's lines per partition name.
	Entries map[string]int `json:"entries"`
	// Files lists every other member with its size and SHA-256.
	Files []File `json:"files"`
}

// Total is the number of entries the index declares.
func (ix *Index) Total() int {
	n := 0
	for _, c := range ix.Entries {
		n += c
	}
	return n
}

// ReadIndex reads manifest.json from dir, where Extract wrote m, and checks
// it against m: the format version, every member but manifest.json listed
// exactly once, each with the size and SHA-256 Extract measured, and
// entries.jsonl among them. Refusals are *RefusedError (manifest_invalid,
// hash_mismatch, unlisted_file).
func ReadIndex(dir string, m *Manifest) (*Index, error) {
	if _, ok := m.File(IndexName); !ok {
		return nil, refuse(ReasonManifest, IndexName, "missing")
	}
	b, err := readSmall(filepath.Join(dir, IndexName), MaxIndex)
	if err != nil {
		return nil, &RefusedError{Reason: ReasonManifest, Path: IndexName, Err: err}
	}
	var ix Index
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ix); err != nil {
		return nil, &RefusedError{Reason: ReasonManifest, Path: IndexName, Detail: "malformed", Err: err}
	}
	if dec.More() {
		return nil, refuse(ReasonManifest, IndexName, "more than one JSON value")
	}
	if ix.Format != FormatVersion {
		return nil, refuse(ReasonManifest, IndexName, "format %d, want %d", ix.Format, FormatVersion)
	}
	for p, n := range ix.Entries {
		var part knowledge.Partition
		if err := part.UnmarshalText([]byte(p)); err != nil || n < 0 {
			return nil, refuse(ReasonManifest, IndexName, "entry count %q: %d", p, n)
		}
	}
	extracted := make(map[string]File, len(m.Files))
	for _, f := range m.Files {
		extracted[f.Name] = f
	}
	listed := map[string]bool{}
	for _, f := range ix.Files {
		if f.Name == IndexName || listed[f.Name] {
			return nil, refuse(ReasonManifest, f.Name, "listed twice")
		}
		listed[f.Name] = true
		got, ok := extracted[f.Name]
		if !ok {
			return nil, refuse(ReasonManifest, f.Name, "listed but not in the archive")
		}
		if got.Size != f.Size || got.SHA256 != f.SHA256 {
			return nil, refuse(ReasonHashMismatch, f.Name, "size or SHA-256 differs from the manifest")
		}
	}
	for _, f := range m.Files {
		if f.Name != IndexName && !listed[f.Name] {
			return nil, refuse(ReasonUnlisted, f.Name, "not in the manifest")
		}
	}
	if !listed[EntriesName] {
		return nil, refuse(ReasonManifest, EntriesName, "missing")
	}
	return &ix, nil
}

func readSmall(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("above %d bytes", limit)
	}
	return b, nil
}

// Record is one line of entries.jsonl: an entry, as knowledge.Entry encodes
// it (its confidence is the claimed one), with its partition and when the
// exporting Grimoire stored it.
type Record struct {
	knowledge.Entry
	Partition knowledge.Partition `json:"partition"`
	Created   time.Time           `json:"created"`
}

// ReadEntries parses entries.jsonl strictly: one JSON object per line, no
// unknown fields, lines of at most MaxLine bytes, at most MaxEntries
// entries, each with an id unique in the file, a partition of self or
// external, and passing knowledge.Entry.Validate. Refusals are
// *RefusedError naming the line (line_too_long, invalid_entry,
// too_many_entries).
func ReadEntries(r io.Reader) ([]Record, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []Record
	ids := map[string]bool{}
	for n := 1; ; n++ {
		line, err := readLine(br, MaxLine)
		if errors.Is(err, io.EOF) && line == nil {
			break
		}
		if errors.Is(err, errLong) {
			return nil, refuse(ReasonLineTooLong, EntriesName, "line %d above %d bytes", n, MaxLine)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("archive: %s: %w", EntriesName, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(out) == MaxEntries {
			return nil, refuse(ReasonTooManyEntries, EntriesName, "more than %d entries", MaxEntries)
		}
		rec, rerr := parseRecord(line)
		if rerr != nil {
			return nil, &RefusedError{Reason: ReasonInvalidEntry, Path: EntriesName, Detail: fmt.Sprintf("line %d", n), Err: rerr}
		}
		if ids[rec.ID] {
			return nil, refuse(ReasonInvalidEntry, EntriesName, "line %d: duplicate id", n)
		}
		ids[rec.ID] = true
		out = append(out, rec)
	}
	return out, nil
}

var errLong = errors.New("line too long")

// readLine returns the next line without its newline; io.EOF with the last
// line if it has none, or with nil at the end.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > limit+1 {
			return nil, errLong
		}
		line = append(line, frag...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) == 0 {
				return nil, io.EOF
			}
			if len(line) > limit {
				return nil, errLong
			}
			return line, io.EOF
		default:
			return nil, err
		}
	}
}

func parseRecord(line []byte) (Record, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return rec, err
	}
	if dec.More() {
		return rec, errors.New("more than one JSON value")
	}
	if rec.ID == "" {
		return rec, errors.New("entry without an id")
	}
	if rec.Partition != knowledge.PartitionSelf && rec.Partition != knowledge.PartitionExternal {
		return rec, fmt.Errorf("partition %v: want self or external", rec.Partition)
	}
	if err := rec.Entry.Validate(); err != nil {
		return rec, err
	}
	return rec, nil
}

// EncodeEntries returns entries.jsonl for recs and the count per partition.
func EncodeEntries(recs []Record) ([]byte, map[string]int, error) {
	var buf bytes.Buffer
	counts := map[string]int{}
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return nil, nil, fmt.Errorf("archive: entry %s: %w", recs[i].ID, err)
		}
		counts[recs[i].Partition.String()]++
	}
	return buf.Bytes(), counts, nil
}

// Member is a file to write into an archive.
type Member struct {
	Name string
	Data []byte
}

// Sum returns f's index record for data.
func Sum(name string, data []byte) File {
	h := sha256.Sum256(data)
	return File{Name: name, Size: int64(len(data)), SHA256: hex.EncodeToString(h[:])}
}

// Write writes an archive in format f to w: manifest.json from ix (its
// Files replaced by the members' sums), then the members. Every name must
// pass CheckName with the default limits, and none may be manifest.json.
func Write(w io.Writer, f Format, ix Index, members []Member) error {
	ix.Files = ix.Files[:0:0]
	for _, m := range members {
		if _, err := CheckName(m.Name, Limits{}); err != nil || m.Name == IndexName {
			return fmt.Errorf("archive: member name %s", quoteName(m.Name))
		}
		ix.Files = append(ix.Files, Sum(m.Name, m.Data))
	}
	idx, err := json.MarshalIndent(&ix, "", "  ")
	if err != nil {
		return fmt.Errorf("archive: manifest: %w", err)
	}
	all := append([]Member{{Name: IndexName, Data: append(idx, '\n')}}, members...)
	mtime := ix.Created.Truncate(time.Second)
	if mtime.IsZero() {
		mtime = time.Unix(0, 0)
	}
	switch f {
	case Zip:
		zw := zip.NewWriter(w)
		for _, m := range all {
			fw, err := zw.CreateHeader(&zip.FileHeader{Name: m.Name, Method: zip.Deflate, Modified: mtime})
			if err != nil {
				return fmt.Errorf("archive: %w", err)
			}
			if _, err := fw.Write(m.Data); err != nil {
				return fmt.Errorf("archive: %w", err)
			}
		}
		return zw.Close()
	case Tar, TarGz:
		var gz *gzip.Writer
		tw := tar.NewWriter(w)
		if f == TarGz {
			gz = gzip.NewWriter(w)
			tw = tar.NewWriter(gz)
		}
		for _, m := range all {
			hdr := &tar.Header{Typeflag: tar.TypeReg, Name: m.Name, Size: int64(len(m.Data)), Mode: 0o600, ModTime: mtime}
			if err := tw.WriteHeader(hdr); err != nil {
				return fmt.Errorf("archive: %w", err)
			}
			if _, err := tw.Write(m.Data); err != nil {
				return fmt.Errorf("archive: %w", err)
			}
		}
		if err := tw.Close(); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		if gz != nil {
			return gz.Close()
		}
		return nil
	}
	return fmt.Errorf("archive: format %v", f)
}

// Load extracts the archive at archivePath into destDir (see Extract) and
// checks it: its manifest (ReadIndex), its entries (ReadEntries) and that
// the manifest's entry counts match them. Every refusal is a
// *RefusedError; nothing outside destDir is read or written.
func Load(ctx context.Context, archivePath, destDir string, lim Limits) (*Index, []Record, error) {
	m, err := Extract(ctx, archivePath, destDir, lim)
	if err != nil {
		return nil, nil, err
	}
	ix, err := ReadIndex(destDir, m)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(filepath.Join(destDir, EntriesName))
	if err != nil {
		return nil, nil, fmt.Errorf("archive: %w", err)
	}
	defer f.Close()
	recs, err := ReadEntries(f)
	if err != nil {
		return nil, nil, err
	}
	counts := map[string]int{}
	for i := range recs {
		counts[recs[i].Partition.String()]++
	}
	for p, n := range ix.Entries {
		if counts[p] != n {
			return nil, nil, refuse(ReasonManifest, IndexName, "declares %d %s entries, %s holds %d", n, p, EntriesName, counts[p])
		}
	}
	for p, n := range counts {
		if ix.Entries[p] != n {
			return nil, nil, refuse(ReasonManifest, IndexName, "declares %d %s entries, %s holds %d", ix.Entries[p], p, EntriesName, n)
		}
	}
	return ix, recs, nil
}
