package dashboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func TestServe(t *testing.T) {
	h, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, path string
		status             int
		ctype, contains    string
	}{
		{"page", "GET", "/", 200, "text/html; charset=utf-8", `<script src="/assets/app.js" defer></script>`},
		{"script", "GET", "/assets/app.js", 200, "text/javascript; charset=utf-8", `"use strict"`},
		{"stylesheet", "GET", "/assets/app.css", 200, "text/css; charset=utf-8", "prefers-color-scheme: dark"},
		{"icon", "GET", "/assets/icon.svg", 200, "image/svg+xml", "<svg"},
		{"head", "HEAD", "/", 200, "text/html; charset=utf-8", ""},
		{"unknown asset", "GET", "/assets/nope.js", 404, "", ""},
		{"the page is not a catch-all", "GET", "/index.html", 404, "", ""},
		{"asset directory", "GET", "/assets/", 404, "", ""},
		{"post", "POST", "/", 405, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
			res := rec.Result()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != c.status {
				t.Fatalf("status = %d, want %d", res.StatusCode, c.status)
			}
			if c.status != 200 {
				return
			}
			if got := res.Header.Get("Content-Type"); got != c.ctype {
				t.Errorf("Content-Type = %q, want %q", got, c.ctype)
			}
			for k, want := range map[string]string{
				"Content-Security-Policy": securityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"X-Frame-Options":         "DENY",
				"Referrer-Policy":         "no-referrer",
			} {
				if got := res.Header.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if c.method == "HEAD" && len(body) != 0 {
				t.Errorf("HEAD returned a %d-byte body", len(body))
			}
			if !strings.Contains(string(body), c.contains) {
				t.Errorf("body does not contain %q", c.contains)
			}
		})
	}
}

func TestConditionalGet(t *testing.T) {
	h, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/app.js", nil))
	etag := rec.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	req := httptest.NewRequest("GET", "/assets/app.js", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("status with a matching If-None-Match = %d, want 304", rec.Code)
	}
}

// htmlSinks returns the places in a script that would hand a string to an
// HTML parser or evaluate it as code.
func htmlSinks(src string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`\.(inner|outer)HTML\b`),
		regexp.MustCompile(`\binsertAdjacentHTML\b`),
		regexp.MustCompile(`\bdocument\.write(ln)?\b`),
		regexp.MustCompile(`\bcreateContextualFragment\b`),
		regexp.MustCompile(`\bDOMParser\b`),
		regexp.MustCompile(`\bsrcdoc\b`),
		regexp.MustCompile(`\beval\s*\(`),
		regexp.MustCompile(`\bnew\s+Function\b`),
		regexp.MustCompile(`\bset(Timeout|Interval)\s*\(\s*["'\x60]`),
		regexp.MustCompile(`javascript:`),
		regexp.MustCompile(`setAttribute\(\s*["']on`),
	} {
		for _, m := range re.FindAllString(src, -1) {
			out = append(out, m)
		}
	}
	return out
}

// TestScriptNeverParsesHTML keeps API text out of every HTML parser:
// the script builds its DOM with textContent only.
func TestScriptNeverParsesHTML(t *testing.T) {
	src, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if s := htmlSinks(string(src)); len(s) > 0 {
		t.Errorf("app.js uses HTML or code sinks: %q", s)
	}
	for _, bad := range []string{
		"el.innerHTML = ev.message",
		`row.insertAdjacentHTML("beforeend", x)`,
		"document.write(x)",
		"eval (s)",
		`setTimeout("go()", 1)`,
		`a.setAttribute("onclick", s)`,
	} {
		if len(htmlSinks(bad)) == 0 {
			t.Errorf("htmlSinks(%q) found nothing", bad)
		}
	}
}

// TestPageIsSelfContained checks what the security policy relies on: no
// inline script, style or event handler, and only assets that exist.
func TestPageIsSelfContained(t *testing.T) {
	h, err := New()
	if err != nil {
		t.Fatal(err)
	}
	page := string(h.page.body)
	for _, m := range regexp.MustCompile(`<script[^>]*>[^<]|<style|\sstyle=|\son[a-z]+=`).FindAllString(page, -1) {
		t.Errorf("index.html has inline code or style: %q", m)
	}
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1) {
		if !strings.Contains(m, ` src="`+AssetPrefix) {
			t.Errorf("index.html has a script that is not one of its assets: %q", m)
		}
	}
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		p := m[1]
		if !strings.HasPrefix(p, AssetPrefix) {
			t.Errorf("index.html loads %q from outside %s", p, AssetPrefix)
			continue
		}
		if _, ok := h.assets[strings.TrimPrefix(p, AssetPrefix)]; !ok {
			t.Errorf("index.html loads %q, which does not exist", p)
		}
	}
}

// TestScriptElementsExist catches a script that looks up an element id
// the page does not have.
func TestScriptElementsExist(t *testing.T) {
	src, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	page, err := static.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	ids := regexp.MustCompile(`\$\("([A-Za-z0-9_-]+)"\)`).FindAllStringSubmatch(string(src), -1)
	if len(ids) < 10 {
		t.Fatalf("found only %d element lookups in app.js", len(ids))
	}
	for _, m := range ids {
		if !strings.Contains(string(page), `id="`+m[1]+`"`) {
			t.Errorf("app.js looks up #%s, which index.html does not have", m[1])
		}
	}
}
