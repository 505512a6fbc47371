package generate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteRows writes rows as JSON Lines.
func WriteRows(w io.Writer, rows []Row) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteDir writes s into dir (made if missing): SeedFile with the Grimoire
// rows and one "<class>.jsonl" per class. It returns the paths written,
// the seed file first. Existing files of those names are replaced.
func (s *Suite) WriteDir(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := []string{filepath.Join(dir, SeedFile)}
	if err := writeFile(paths[0], s.Grimoire); err != nil {
		return nil, err
	}
	for _, f := range s.Files {
		p := filepath.Join(dir, f.Name())
		if err := writeFile(p, f.Rows); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func writeFile(path string, rows []Row) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	if err := WriteRows(f, rows); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
