package vault

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Open returns a Vault whose master key is the KeySize bytes of the file at
// path. The file must be a regular file of exactly KeySize bytes that
// neither group nor others may access (mode 0600 or stricter); anything
// else is refused, never repaired. If path does not exist, Open creates it
// with a key from crypto/rand, mode 0600, in a directory created with mode
// 0700 if missing: the key is written to a temporary file, synced, and
// linked into place, so path never holds a partial key and two processes
// creating it at once end up with the same key.
func Open(path string) (*Vault, error) {
	key, err := loadKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createKey(path)
	}
	if err != nil {
		return nil, err
	}
	return newVault(key), nil
}

// loadKey reads the key file; an absent file yields an error satisfying
// errors.Is(err, fs.ErrNotExist).
func loadKey(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("vault: open key file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("vault: key file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("vault: key file %s is not a regular file (%v)", path, fi.Mode().Type())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("vault: key file %s has mode %#o, readable beyond its owner: want 0600 or stricter (chmod 600 it)", path, perm)
	}
	if fi.Size() != KeySize {
		return nil, fmt.Errorf("vault: key file %s holds %d bytes, want %d", path, fi.Size(), KeySize)
	}
	key := make([]byte, KeySize)
	_, err = io.ReadFull(f, key)
	if err == nil {
		var more [1]byte
		if n, _ := f.Read(more[:]); n > 0 {
			err = errors.New("it grew while being read")
		}
	}
	if err != nil {
		clear(key)
		return nil, fmt.Errorf("vault: read key file %s: %w", path, err)
	}
	return key, nil
}

// createKey makes a new key file at path and returns its key. If another
// process created path first, it loads that one instead.
func createKey(path string) (_ []byte, err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("vault: create key file: %w", err)
	}
	key := make([]byte, KeySize)
	rand.Read(key)
	defer func() {
		if err != nil {
			clear(key)
		}
	}()
	tmp, err := os.CreateTemp(dir, ".ward-vault-key-*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("vault: create key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(key)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("vault: write key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			clear(key)
			return loadKey(path)
		}
		return nil, fmt.Errorf("vault: create key file: %w", err)
	}
	if err := syncDir(dir); err != nil {
		return nil, fmt.Errorf("vault: create key file: %w", err)
	}
	return key, nil
}

// syncDir makes a new directory entry durable (not possible on Windows,
// where it is not needed).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
