// Package archive reads and writes Grimoire archives: the tar, tar.gz or
// zip files that `ward grimoire export` writes and `ward grimoire import`
// accepts (seed 001 §10, docs/grimoire-archive.md).
//
// Extract is the hardened reader. It detects the container by its magic
// bytes, never by its name, and refuses the whole archive, with a
// *RefusedError naming a stable Reason and the member concerned, at the
// first of: a symlink, hard link, device, fifo or other special entry; a
// name that is absolute, has a drive letter, contains "..", a backslash, a
// NUL or other control byte, is not clean, is too long or too deep, or
// resolves outside the destination; a duplicate name (compared in lower
// case); an extension outside Limits.Extensions; content that is another
// archive or does not match its extension; more than Limits.MaxFiles
// entries; more than Limits.MaxTotal bytes in all, or a zip entry expanding
// more than Limits.MaxRatio times; a truncated or corrupt container; or a
// secret (a wallet private key, a JWT or OIDC token, a PEM private key, a
// ward bearer token, a key-like JSON field). Sizes are enforced while
// reading: headers are never trusted, every member is read through a limit,
// and no byte beyond the limits reaches the disk. Files are created with
// O_EXCL|O_NOFOLLOW under an os.Root of the destination, so neither a name
// nor a pre-existing symlink can redirect a write outside it.
//
// Extract leaves what it wrote in destDir on a refusal; the caller, who
// made destDir fresh, removes it. Nothing is ever stripped from an archive:
// an archive with a secret is refused, not cleaned.
//
// ReadIndex checks manifest.json against what Extract wrote (every file
// listed, sizes and SHA-256 equal); ReadEntries parses entries.jsonl
// strictly. Write produces an archive that passes all three.
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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Reason is why an archive was refused: a stable snake_case code.
type Reason string

// Refusal reasons.
const (
	ReasonUnknownFormat      Reason = "unknown_format"      // neither zip, tar nor tar.gz
	ReasonCorrupt            Reason = "corrupt"             // truncated, bad header or checksum, trailing data
	ReasonPathTraversal      Reason = "path_traversal"      // absolute, drive letter, "..", or outside destDir
	ReasonBadName            Reason = "bad_name"            // NUL, control byte, backslash, unclean, too long or deep
	ReasonDuplicate          Reason = "duplicate_name"      // a name seen before (in lower case) or already present
	ReasonSymlink            Reason = "symlink"             // a symbolic link entry, or one in the way
	ReasonHardlink           Reason = "hardlink"            // a hard link entry
	ReasonSpecialFile        Reason = "special_file"        // device, fifo, socket, sparse or unknown entry type
	ReasonForbiddenExtension Reason = "forbidden_extension" // not in Limits.Extensions
	ReasonNestedArchive      Reason = "nested_archive"      // a member that is itself an archive or compressed
	ReasonContentMismatch    Reason = "content_mismatch"    // content not what the extension says (binary JSON, executable)
	ReasonTooLarge           Reason = "too_large"           // Limits.MaxTotal exceeded, or a member beyond its declared size
	ReasonTooManyFiles       Reason = "too_many_files"      // Limits.MaxFiles exceeded
	ReasonCompressionRatio   Reason = "compression_ratio"   // a zip member expanding beyond Limits.MaxRatio
	ReasonEncrypted          Reason = "encrypted"           // an encrypted zip member
	ReasonSecretFound        Reason = "secret_found"        // key material or a token in a member
	ReasonManifest           Reason = "manifest_invalid"    // manifest.json missing, malformed or inconsistent
	ReasonHashMismatch       Reason = "hash_mismatch"       // a member's size or SHA-256 differs from the manifest
	ReasonUnlisted           Reason = "unlisted_file"       // a member the manifest does not list
	ReasonLineTooLong        Reason = "line_too_long"       // an entries.jsonl line above MaxLine
	ReasonInvalidEntry       Reason = "invalid_entry"       // an entries.jsonl line that is not a valid entry
	ReasonTooManyEntries     Reason = "too_many_entries"    // more than MaxEntries entries
)

// RefusedError is a refused archive: the reason, the member concerned ("" for
// the archive as a whole) and ward's description. It never quotes member
// content.
type RefusedError struct {
	Reason Reason
	Path   string
	Detail string
	Err    error // the underlying cause, if any
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString("archive refused: ")
	b.WriteString(string(e.Reason))
	if e.Path != "" {
		fmt.Fprintf(&b, ": %s", quoteName(e.Path))
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *RefusedError) Unwrap() error { return e.Err }

// Refusal returns the reason err refused an archive, or "" if err is not a
// *RefusedError.
func Refusal(err error) Reason {
	var re *RefusedError
	if errors.As(err, &re) {
		return re.Reason
	}
	return ""
}

// quoteName quotes a member name for a message, at most 120 bytes of it.
func quoteName(s string) string {
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf("%q", s)
}

func refuse(r Reason, name, format string, args ...any) *RefusedError {
	return &RefusedError{Reason: r, Path: name, Detail: fmt.Sprintf(format, args...)}
}

// Default limits (seed 001 §10 for size, count and extensions).
const (
	DefaultMaxTotal = 500 << 20 // bytes extracted in all
	DefaultMaxFiles = 10_000    // entries, directories included
	DefaultMaxName  = 255       // bytes of a member's full name
	DefaultMaxDepth = 8         // path elements of a member's name
	// DefaultMaxRatio is the most a zip member may expand relative to its
	// compressed size; members that expand to at most RatioFloor bytes are
	// exempt (small, repetitive JSON compresses well).
	DefaultMaxRatio = 100
	RatioFloor      = 1 << 20
)

// DefaultExtensions are the extensions a member may have: the Grimoire's
// JSON and JSON Lines files and SQLite databases with their WAL and shared
// memory files. (The seed's .lance is left out: ward keeps no vector
// store files.)
var DefaultExtensions = []string{".json", ".jsonl", ".sqlite", ".sqlite-wal", ".sqlite-shm"}

// Limits bound what Extract accepts. A zero field takes its default.
type Limits struct {
	MaxTotal   int64    // bytes extracted in all
	MaxFiles   int      // entries, directories included
	MaxName    int      // bytes of a member's name
	MaxDepth   int      // path elements of a member's name
	MaxRatio   int64    // zip expansion cap (see DefaultMaxRatio)
	Extensions []string // allowed extensions, lower case with the dot
}

func (l Limits) withDefaults() Limits {
	if l.MaxTotal <= 0 {
		l.MaxTotal = DefaultMaxTotal
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxName <= 0 {
		l.MaxName = DefaultMaxName
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = DefaultMaxRatio
	}
	if len(l.Extensions) == 0 {
		l.Extensions = DefaultExtensions
	}
	return l
}

// File is one extracted member: its cleaned name, size and SHA-256 (hex).
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest is what Extract wrote: the regular files, in archive order, and
// their total size.
type Manifest struct {
	Format Format
	Files  []File
	Total  int64
}

// File returns the extracted file named name.
func (m *Manifest) File(name string) (File, bool) {
	for _, f := range m.Files {
		if f.Name == name {
			return f, true
		}
	}
	return File{}, false
}

// Format is an archive's container.
type Format uint8

// Formats.
const (
	Zip Format = iota + 1
	Tar
	TarGz
)

func (f Format) String() string {
	switch f {
	case Zip:
		return "zip"
	case Tar:
		return "tar"
	case TarGz:
		return "tar.gz"
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// FormatOf returns the format to write a file named name in: .zip,
// .tar.gz or .tgz, .tar.
func FormatOf(name string) (Format, error) {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".zip"):
		return Zip, nil
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		return TarGz, nil
	case strings.HasSuffix(n, ".tar"):
		return Tar, nil
	}
	return 0, fmt.Errorf("archive: %s: name it .zip, .tar.gz, .tgz or .tar", name)
}

// sniff returns the container format of head, the archive's first bytes.
func sniff(head []byte) (Format, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return Zip, true
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return TarGz, true
	case isTar(head):
		return Tar, true
	}
	return 0, false
}

func isTar(head []byte) bool {
	return len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar"))
}

// Extract extracts the archive at archivePath into destDir, an existing
// directory the caller made fresh, within lim, and returns what it wrote;
// any refusal is a *RefusedError (see the package comment). Other errors
// are failures of the destination or ctx. It does not follow or create
// symlinks. Not safe to run twice on one destDir at once.
func Extract(ctx context.Context, archivePath, destDir string, lim Limits) (*Manifest, error) {
	f, err := os.Open(archivePath)
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, refuse(ReasonUnknownFormat, "", "not a regular file")
	}
	return extract(ctx, f, st.Size(), func() (destination, func() error, error) {
		root, err := os.OpenRoot(destDir)
		if err != nil {
			return nil, nil, fmt.Errorf("archive: destination: %w", err)
		}
		return rootDest{root}, root.Close, nil
	}, lim)
}

// destination is where an extraction creates directories and files: the
// caller's directory through an os.Root, or memory in the fuzz test, which
// so runs the whole extractor without the cost of a file system.
type destination interface {
	MkdirAll(name string, perm fs.FileMode) error
	// Create creates the file name, which must not exist, for writing;
	// it does not follow a symlink in its place.
	Create(name string) (io.WriteCloser, error)
	Lstat(name string) (fs.FileInfo, error)
}

// rootDest is a destination on disk, confined to its root.
type rootDest struct{ *os.Root }

func (d rootDest) Create(name string) (io.WriteCloser, error) {
	return d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
}

var _ destination = rootDest{}

// extract is Extract of the size bytes of r, into the destination open
// returns (with its closer) once the container is recognised.
func extract(ctx context.Context, r io.ReaderAt, size int64, open func() (destination, func() error, error), lim Limits) (*Manifest, error) {
	lim = lim.withDefaults()
	head := make([]byte, 512)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("archive: %w", err)
	}
	format, ok := sniff(head[:n])
	if !ok {
		return nil, refuse(ReasonUnknownFormat, "", "neither zip, tar nor tar.gz")
	}
	dst, closeDst, err := open()
	if err != nil {
		return nil, err
	}
	defer closeDst()
	x := &extractor{ctx: ctx, lim: lim, dst: dst, seen: map[string]bool{}, dirs: map[string]bool{},
		buf: make([]byte, 64<<10), m: &Manifest{Format: format}}
	switch format {
	case Zip:
		err = x.zip(r, size)
	case TarGz:
		zr, gerr := gzip.NewReader(bufio.NewReader(io.NewSectionReader(r, 0, size)))
		if gerr != nil {
			return nil, &RefusedError{Reason: ReasonCorrupt, Detail: "gzip header", Err: gerr}
		}
		err = x.tar(zr)
	case Tar:
		err = x.tar(bufio.NewReader(io.NewSectionReader(r, 0, size)))
	}
	if err != nil {
		return nil, err
	}
	return x.m, nil
}

type extractor struct {
	ctx   context.Context
	lim   Limits
	dst   destination
	seen  map[string]bool // every name, in lower case
	dirs  map[string]bool // directories, explicit or implied, in lower case
	count int
	m     *Manifest
	buf   []byte
}

// kind is what an entry is.
type kind uint8

const (
	kindFile kind = iota + 1
	kindDir
)

func (x *extractor) zip(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return &RefusedError{Reason: ReasonCorrupt, Detail: "zip directory", Err: err}
	}
	if len(zr.File) > x.lim.MaxFiles {
		return refuse(ReasonTooManyFiles, "", "%d entries, above %d", len(zr.File), x.lim.MaxFiles)
	}
	var declared uint64
	for _, zf := range zr.File {
		declared += zf.UncompressedSize64
		if declared > uint64(x.lim.MaxTotal) {
			return refuse(ReasonTooLarge, zf.Name, "declared sizes above %d bytes", x.lim.MaxTotal)
		}
	}
	for _, zf := range zr.File {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		mode := zf.Mode()
		var k kind
		switch {
		case mode&fs.ModeSymlink != 0:
			return refuse(ReasonSymlink, zf.Name, "symbolic link entry")
		case mode&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeIrregular) != 0:
			return refuse(ReasonSpecialFile, zf.Name, "entry mode %v", mode.Type())
		case mode.IsDir() || strings.HasSuffix(zf.Name, "/"):
			k = kindDir
		default:
			k = kindFile
		}
		name, err := x.admit(zf.Name, k)
		if err != nil {
			return err
		}
		if k == kindDir {
			if zf.UncompressedSize64 != 0 {
				return refuse(ReasonCorrupt, zf.Name, "directory with content")
			}
			continue
		}
		if zf.Flags&0x1 != 0 {
			return refuse(ReasonEncrypted, zf.Name, "encrypted entry")
		}
		if zf.Method != zip.Store && zf.Method != zip.Deflate {
			return refuse(ReasonCorrupt, zf.Name, "compression method %d", zf.Method)
		}
		ratioCap := max(int64(min(zf.CompressedSize64, 1<<40))*x.lim.MaxRatio, RatioFloor)
		if zf.UncompressedSize64 > uint64(ratioCap) {
			return refuse(ReasonCompressionRatio, zf.Name, "declares %d bytes from %d compressed, above %dx",
				zf.UncompressedSize64, zf.CompressedSize64, x.lim.MaxRatio)
		}
		rc, err := zf.Open()
		if err != nil {
			return &RefusedError{Reason: ReasonCorrupt, Path: zf.Name, Err: err}
		}
		err = x.write(name, rc, ratioCap, zf.UncompressedSize64)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (x *extractor) tar(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !(errors.Is(err, tar.ErrInsecurePath) && hdr != nil) {
			return &RefusedError{Reason: ReasonCorrupt, Detail: "tar header", Err: err}
		}
		var k kind
		switch hdr.Typeflag {
		case tar.TypeReg, tar.TypeRegA:
			k = kindFile
		case tar.TypeDir:
			k = kindDir
		case tar.TypeXGlobalHeader:
			// PAX global metadata (git archive writes one); archive/tar
			// applies it to nothing, and neither does Extract.
			x.count++
			if x.count > x.lim.MaxFiles {
				return refuse(ReasonTooManyFiles, hdr.Name, "more than %d entries", x.lim.MaxFiles)
			}
			continue
		case tar.TypeSymlink:
			return refuse(ReasonSymlink, hdr.Name, "symbolic link entry")
		case tar.TypeLink:
			return refuse(ReasonHardlink, hdr.Name, "hard link entry")
		default:
			return refuse(ReasonSpecialFile, hdr.Name, "entry type %q", hdr.Typeflag)
		}
		name, rerr := x.admit(hdr.Name, k)
		if rerr != nil {
			return rerr
		}
		if k == kindDir {
			if hdr.Size != 0 {
				return refuse(ReasonCorrupt, hdr.Name, "directory with content")
			}
			continue
		}
		if hdr.Size < 0 {
			return refuse(ReasonCorrupt, hdr.Name, "negative size")
		}
		if err := x.write(name, tr, -1, uint64(hdr.Size)); err != nil {
			return err
		}
	}
	// Past the end-of-archive blocks only zero padding may follow (at most
	// a record's worth and a little): anything else is smuggled data.
	n, err := io.Copy(nonZero{}, io.LimitReader(r, 1<<20+1))
	switch {
	case errors.Is(err, errTrailing):
		return refuse(ReasonCorrupt, "", "data after the end of the archive")
	case err != nil:
		return &RefusedError{Reason: ReasonCorrupt, Detail: "after the end of the archive", Err: err}
	case n > 1<<20:
		return refuse(ReasonCorrupt, "", "more than 1 MiB after the end of the archive")
	}
	return nil
}

var errTrailing = errors.New("trailing data")

// nonZero is a writer that fails on a non-zero byte.
type nonZero struct{}

func (nonZero) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != 0 {
			return 0, errTrailing
		}
	}
	return len(p), nil
}

// admit checks an entry's name and kind before anything is written, records
// it, and returns its cleaned name.
func (x *extractor) admit(raw string, k kind) (string, error) {
	x.count++
	if x.count > x.lim.MaxFiles {
		return "", refuse(ReasonTooManyFiles, raw, "more than %d entries", x.lim.MaxFiles)
	}
	name, err := CheckName(raw, x.lim)
	if err != nil {
		return "", err
	}
	key := strings.ToLower(name)
	if x.seen[key] || (k == kindFile && x.dirs[key]) {
		return "", refuse(ReasonDuplicate, raw, "name seen before")
	}
	// No ancestor may be a file.
	for d := path.Dir(key); d != "."; d = path.Dir(d) {
		if x.seen[d] && !x.dirs[d] {
			return "", refuse(ReasonDuplicate, raw, "a parent is a file")
		}
	}
	if k == kindFile {
		ext := strings.ToLower(path.Ext(name))
		if ext == "" || !slices.Contains(x.lim.Extensions, ext) {
			return "", refuse(ReasonForbiddenExtension, raw, "extension %q is not allowed", ext)
		}
	}
	x.seen[key] = true
	if k == kindDir {
		x.dirs[key] = true
	}
	for d := path.Dir(key); d != "."; d = path.Dir(d) {
		x.dirs[d] = true
	}
	if k == kindDir {
		if err := x.dst.MkdirAll(name, 0o700); err != nil {
			return "", x.createErr(raw, name, err)
		}
	}
	return name, nil
}

// CheckName returns the cleaned form of a member name, or why it is
// refused: path_traversal for a name that is absolute, has a drive letter,
// contains "..", or is not local; bad_name for a NUL or control byte, a
// backslash or colon, invalid UTF-8, an unclean form ("./a", "a//b"), or
// one above lim's length or depth. A trailing slash (a directory) is
// removed.
func CheckName(raw string, lim Limits) (string, error) {
	lim = lim.withDefaults()
	if raw == "" {
		return "", refuse(ReasonBadName, raw, "empty name")
	}
	if len(raw) > lim.MaxName {
		return "", refuse(ReasonBadName, raw, "name of %d bytes, above %d", len(raw), lim.MaxName)
	}
	if !utf8.ValidString(raw) {
		return "", refuse(ReasonBadName, raw, "name is not UTF-8")
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f {
			return "", refuse(ReasonBadName, raw, "control byte %#x in name", r)
		}
	}
	// Judge traversal as Windows would too: backslashes as separators.
	alt := strings.ReplaceAll(raw, `\`, "/")
	switch {
	case strings.HasPrefix(alt, "/"):
		return "", refuse(ReasonPathTraversal, raw, "absolute path")
	case len(alt) >= 2 && alt[1] == ':' && (alt[0]|0x20 >= 'a' && alt[0]|0x20 <= 'z'):
		return "", refuse(ReasonPathTraversal, raw, "drive letter")
	case strings.Contains(alt, ".."):
		return "", refuse(ReasonPathTraversal, raw, `".." in name`)
	case strings.ContainsAny(raw, `\:`):
		return "", refuse(ReasonBadName, raw, "backslash or colon in name")
	}
	name := strings.TrimSuffix(raw, "/")
	if name == "" || name == "." || path.Clean(name) != name {
		return "", refuse(ReasonBadName, raw, "not a clean relative name")
	}
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", refuse(ReasonPathTraversal, raw, "resolves outside the destination")
	}
	if d := strings.Count(name, "/") + 1; d > lim.MaxDepth {
		return "", refuse(ReasonBadName, raw, "%d path elements, above %d", d, lim.MaxDepth)
	}
	return name, nil
}

// createErr classifies a failure to create name in the destination.
func (x *extractor) createErr(raw, name string, err error) error {
	for p := name; p != "."; p = path.Dir(p) {
		if fi, lerr := x.dst.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return &RefusedError{Reason: ReasonSymlink, Path: raw, Detail: "a symlink is in the way", Err: err}
		}
	}
	switch {
	case errors.Is(err, syscall.ELOOP):
		return &RefusedError{Reason: ReasonSymlink, Path: raw, Detail: "a symlink is in the way", Err: err}
	case errors.Is(err, fs.ErrExist):
		return &RefusedError{Reason: ReasonDuplicate, Path: raw, Detail: "exists in the destination", Err: err}
	}
	// Names are local by now, so os.Root refuses to leave the root only
	// through a symlink, found above; anything else is a failure.
	return fmt.Errorf("archive: create %s: %w", quoteName(name), err)
}

// write copies one member to name through a limit: at most the total left
// and, for a zip member, capRatio bytes (negative: no ratio cap); and, for
// zip, archive/zip itself stops at the declared size. It sniffs the head,
// hashes and scans for secrets as it goes.
func (x *extractor) write(name string, r io.Reader, capRatio int64, declared uint64) error {
	left := x.lim.MaxTotal - x.m.Total
	if declared > uint64(left) {
		return refuse(ReasonTooLarge, name, "member of %d bytes, %d left of %d", declared, left, x.lim.MaxTotal)
	}
	budget, reason := left, ReasonTooLarge
	if capRatio >= 0 && capRatio < budget {
		budget, reason = capRatio, ReasonCompressionRatio
	}
	if d := path.Dir(name); d != "." {
		if err := x.dst.MkdirAll(d, 0o700); err != nil {
			return x.createErr(name, d, err)
		}
	}
	out, err := x.dst.Create(name)
	if err != nil {
		return x.createErr(name, name, err)
	}
	defer out.Close()
	h := sha256.New()
	sc := newScanner()
	ext := strings.ToLower(path.Ext(name))
	var n int64
	lr := io.LimitReader(r, budget+1)
	var head []byte
	headDone := false
	for {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		k, rerr := lr.Read(x.buf)
		if k > 0 {
			n += int64(k)
			if n > budget {
				return refuse(reason, name, "expands past %d bytes", budget)
			}
			chunk := x.buf[:k]
			if !headDone {
				head = append(head, chunk[:min(len(chunk), 512-len(head))]...)
				if len(head) >= 512 {
					if err := checkHead(name, ext, head); err != nil {
						return err
					}
					headDone = true
				}
			}
			if headDone && isJSON(ext) && bytes.IndexByte(chunk, 0) >= 0 {
				return refuse(ReasonContentMismatch, name, "NUL byte in a JSON file")
			}
			if kind := sc.scan(chunk); kind != "" {
				return refuse(ReasonSecretFound, name, "%s", kind)
			}
			h.Write(chunk)
			if _, err := out.Write(chunk); err != nil {
				return fmt.Errorf("archive: write %s: %w", quoteName(name), err)
			}
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			if errors.Is(rerr, zip.ErrFormat) && declared > 0 && uint64(n) >= declared {
				return refuse(ReasonTooLarge, name, "expands past its declared %d bytes", declared)
			}
			return &RefusedError{Reason: ReasonCorrupt, Path: name, Detail: "reading member", Err: rerr}
		}
	}
	if !headDone {
		if err := checkHead(name, ext, head); err != nil {
			return err
		}
	}
	if kind := sc.finish(); kind != "" {
		return refuse(ReasonSecretFound, name, "%s", kind)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("archive: write %s: %w", quoteName(name), err)
	}
	x.m.Total += n
	x.m.Files = append(x.m.Files, File{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// Magic numbers of containers and compressors a member may not be, and of
// executables.
var (
	nestedMagic = [][]byte{[]byte("PK\x03\x04"), []byte("PK\x05\x06"), []byte("PK\x07\x08"), {0x1f, 0x8b},
		[]byte("BZh"), []byte("\xfd7zXZ\x00"), {0x28, 0xb5, 0x2f, 0xfd}, []byte("7z\xbc\xaf\x27\x1c"), []byte("Rar!")}
	execMagic = [][]byte{[]byte("\x7fELF"), []byte("MZ"), {0xcf, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, []byte("#!")}
)

// checkHead checks a member's first bytes (512, or all of a shorter one).
func checkHead(name, ext string, head []byte) error {
	for _, m := range nestedMagic {
		if bytes.HasPrefix(head, m) {
			return refuse(ReasonNestedArchive, name, "member is an archive or compressed")
		}
	}
	if isTar(head) {
		return refuse(ReasonNestedArchive, name, "member is a tar archive")
	}
	for _, m := range execMagic {
		if bytes.HasPrefix(head, m) {
			return refuse(ReasonContentMismatch, name, "member is an executable or script")
		}
	}
	switch ext {
	case ".json", ".jsonl":
		if bytes.IndexByte(head, 0) >= 0 {
			return refuse(ReasonContentMismatch, name, "NUL byte in a JSON file")
		}
	case ".sqlite":
		if !bytes.HasPrefix(head, []byte("SQLite format 3\x00")) {
			return refuse(ReasonContentMismatch, name, "not an SQLite database")
		}
	case ".sqlite-wal":
		if len(head) > 0 && !bytes.HasPrefix(head, []byte{0x37, 0x7f, 0x06, 0x82}) && !bytes.HasPrefix(head, []byte{0x37, 0x7f, 0x06, 0x83}) {
			return refuse(ReasonContentMismatch, name, "not an SQLite WAL")
		}
	}
	return nil
}

func isJSON(ext string) bool { return ext == ".json" || ext == ".jsonl" }
