//go:build tools

// Package ward pins the dependencies of the surfaces being written
// (removed once each is imported by real code).
package ward

import (
	_ "charm.land/bubbles/v2/progress"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/a2aproject/a2a-go/a2a"
	_ "github.com/chromedp/chromedp"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/prometheus/client_golang/prometheus"
)
