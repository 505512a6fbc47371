package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// seqBlock is how many sequence numbers a sender reserves on disk at a
// time: one fsync per block instead of per message. A restart resumes after
// the reserved block, so a number is never reused; the gap is harmless
// (receivers require "increasing", not "consecutive").
const seqBlock = 64

// senderFile and receiverFile live under Config.DataDir.
const (
	senderFile   = "relay-sender.json"
	receiverFile = "relay-received.json"
)

type senderState struct {
	Reserved uint64 `json:"reserved"`
}

type receiverState struct {
	Highest map[common.Address]uint64 `json:"highest"`
	Seen    map[common.Address]Seen   `json:"seen"`
}

// loadJSON decodes path strictly into v; a missing file leaves v as is.
// A corrupt file is an error, never a silent reset: resetting either file
// would let a sequence number be reused or a replay be accepted.
func loadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("relay: read state: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("relay: decode state %s: %w", filepath.Base(path), err)
	}
	if dec.More() {
		return fmt.Errorf("relay: decode state %s: trailing data", filepath.Base(path))
	}
	return nil
}

// saveJSON replaces path with v atomically (writeFileAtomic).
func saveJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("relay: encode state: %w", err)
	}
	if err := writeFileAtomic(path, b); err != nil {
		return fmt.Errorf("relay: write state: %w", err)
	}
	return nil
}

// writeFileAtomic replaces path with b: a temporary file in the same
// directory, fsynced, renamed over path, and the directory fsynced.
func writeFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	if err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	return nil
}

// Seen is the last membership announcement received from a member.
type Seen struct {
	Addr  common.Address `json:"addr"`
	Clade string         `json:"clade"`
	// Announced is the time in the signed announcement.
	Announced time.Time `json:"announced"`
	// Seq is the announcement's sequence number.
	Seq uint64 `json:"seq"`
}
