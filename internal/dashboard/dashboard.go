// Package dashboard serves ward's owner dashboard: one HTML page, its
// stylesheet and its script, embedded in the binary and written for ward
// (no framework, no third-party files, no build step).
//
// The page itself is public and holds no data. Everything it shows comes
// from the HTTP API under /v1, called by the script with the bearer token
// the owner pastes into the page (kept in the tab's sessionStorage); the
// live feed reads GET /v1/events as a fetch stream so that the token
// travels in the Authorization header, never in a URL. Text from the API
// can be attacker-written (tool names, messages, summaries), so the script
// builds the DOM with textContent only; TestScriptNeverParsesHTML keeps it
// that way, and the Content-Security-Policy below forbids inline script
// and every origin but the daemon's own. The secret of a token created or
// rotated from the page is shown once and kept nowhere: not in storage,
// not in the markup, and not in the page once dismissed.
package dashboard

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// AssetPrefix is the path under which the page's stylesheet, script and
// icon are served.
const AssetPrefix = "/assets/"

// securityPolicy allows the page to load only its own assets and talk
// only to its own origin; it cannot be framed.
const securityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

type asset struct {
	body  []byte
	ctype string
	etag  string
}

// Handler serves the dashboard: the page at "/" and its assets under
// AssetPrefix; any other path is 404. It answers GET and HEAD only and is
// safe for concurrent use. Mount it for "GET /{$}" and "GET /assets/".
type Handler struct {
	page   asset
	assets map[string]asset // by path below AssetPrefix
}

var _ http.Handler = (*Handler)(nil)

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".svg":  "image/svg+xml",
}

// New returns the dashboard's handler.
func New() (*Handler, error) {
	h := &Handler{assets: map[string]asset{}}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		a := asset{body: b, ctype: contentTypes[path.Ext(p)], etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if a.ctype == "" {
			a.ctype = "application/octet-stream"
		}
		name := strings.TrimPrefix(p, "static/")
		if name == "index.html" {
			h.page = a
		} else {
			h.assets[name] = a
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if h.page.body == nil {
		return nil, fs.ErrNotExist
	}
	return h, nil
}

// ServeHTTP serves the page or one asset.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var a asset
	switch p := r.URL.Path; {
	case p == "/":
		a = h.page
	case strings.HasPrefix(p, AssetPrefix):
		var ok bool
		if a, ok = h.assets[strings.TrimPrefix(p, AssetPrefix)]; !ok {
			http.NotFound(w, r)
			return
		}
	default:
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", a.ctype)
	hd.Set("Content-Security-Policy", securityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("ETag", a.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
