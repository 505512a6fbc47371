package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

var (
	styleTitle    = lipgloss.NewStyle().Bold(true)
	styleHead     = lipgloss.NewStyle().Bold(true).Underline(true)
	styleDim      = lipgloss.NewStyle().Foreground(lipgloss.Color("8"))
	styleOK       = lipgloss.NewStyle().Foreground(lipgloss.Color("2"))
	styleBad      = lipgloss.NewStyle().Foreground(lipgloss.Color("1"))
	styleWarn     = lipgloss.NewStyle().Foreground(lipgloss.Color("3"))
	styleInfo     = lipgloss.NewStyle().Foreground(lipgloss.Color("6"))
	styleSelected = lipgloss.NewStyle().Reverse(true)
	styleHalted   = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("1"))
)

// sprites are the agent's glyph and colour per state.
var sprites = [...]struct {
	glyph string
	style lipgloss.Style
}{
	spriteIdle:      {"(-.-)", styleDim},
	spriteThinking:  {"(o.o)?", styleInfo},
	spriteExecuting: {"(>.<)!", styleWarn},
	spriteSuccess:   {"(^.^)", styleOK},
	spriteFailure:   {"(x.x)", styleBad},
}

func bar(width int, c string) progress.Model {
	return progress.New(progress.WithWidth(width), progress.WithFillCharacters('█', '░'),
		progress.WithColors(lipgloss.Color(c)), progress.WithoutPercentage())
}

// View draws the model.
func (m Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.WindowTitle = "ward tui"
	return v
}

// Render returns the view's text (with colours), every line at most the
// window's width.
func (m Model) Render() string {
	w := max(m.width, 40)
	var top, body []string
	top = append(top, m.headerLines(w)...)
	top = append(top, "")
	top = append(top, m.spriteLine())
	top = append(top, "")
	switch {
	case m.help:
		body = helpLines()
	case m.detail:
		body = m.detailLines(w)
	default:
		body = m.bodyLines(w, max(m.height-len(top)-2, 6))
	}
	keys := "q quit · ? help · ↑/↓ j/k select · enter details · a approve · r reject"
	switch {
	case m.confirm != "":
		keys = "y " + m.confirm + " · n or esc cancel"
	case m.detail:
		keys = "esc back · a approve · r reject · ↑/↓ j/k next item · q quit"
	}
	footer := []string{m.statusLine(), styleDim.Render(keys)}
	lines := append(top, body...)
	// The footer sits on the window's last lines; the body gives way.
	if n := m.height - len(footer); n > 0 {
		for len(lines) < n {
			lines = append(lines, "")
		}
		lines = lines[:n]
	}
	lines = append(lines, footer...)
	fit := lipgloss.NewStyle().MaxWidth(w)
	for i, l := range lines {
		lines[i] = fit.Render(l)
	}
	return strings.Join(lines, "\n")
}

func (m Model) headerLines(w int) []string {
	var conn string
	switch m.conn.state {
	case connLive:
		conn = styleOK.Render("● live")
	case connConnecting:
		conn = styleWarn.Render("○ connecting…")
	case connDown:
		conn = styleBad.Render(fmt.Sprintf("✕ disconnected (retry in %s)", m.conn.retryIn.Round(100*time.Millisecond)))
		if m.conn.err != "" {
			conn += " " + styleDim.Render(m.conn.err)
		}
	}
	count := fmt.Sprintf("  %d events", m.eventsTotal)
	if m.gaps > 0 {
		count += fmt.Sprintf(" (%d gaps: events were dropped)", m.gaps)
	}
	out := []string{styleTitle.Render("ward") + "  " + m.addr + "  " + conn + styleDim.Render(count)}
	phase := m.gate.Phase
	if phase == "" {
		phase = "?"
	}
	halt := styleOK.Render("running")
	if m.gate.Halted {
		halt = styleHalted.Render(" HALTED ")
		if m.gate.HaltReason != "" {
			halt += " " + m.gate.HaltReason
		}
	}
	line := "phase " + styleTitle.Render(phase) + "   writes " + halt
	if !m.gateKnown && len(m.missing) > 0 {
		line += styleDim.Render("   (gate status not served)")
	}
	if m.snapErr != "" {
		line += "   " + styleBad.Render("api: "+m.snapErr)
	}
	out = append(out, line)
	bw := min(max(w-50, 10), 40)
	for _, s := range m.gate.Spend {
		label := fmt.Sprintf("spend %-8s", s.Name)
		if s.LimitCents <= 0 {
			line := label + " " + dollars(s.UsedCents) + styleDim.Render(" (no limit)")
			if s.HeldCents > 0 {
				line += styleDim.Render(" + " + dollars(s.HeldCents) + " held by permits")
			}
			out = append(out, line)
			continue
		}
		f := float64(s.UsedCents) / float64(s.LimitCents)
		c := "2"
		switch {
		case f >= 0.9:
			c = "1"
		case f >= 0.7:
			c = "3"
		}
		b := bar(bw, c)
		line := fmt.Sprintf("%s %s %s / %s  %3.0f%%", label, b.ViewAs(min(max(f, 0), 1)), dollars(s.UsedCents), dollars(s.LimitCents), f*100)
		if s.HeldCents > 0 {
			line += styleDim.Render(" + " + dollars(s.HeldCents) + " held by permits")
		}
		out = append(out, line)
	}
	return out
}

func dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%d.%02d", sign, cents/100, cents%100)
}

func (m Model) spriteLine() string {
	s, tool := m.sprite()
	sp := sprites[s]
	line := "agent " + sp.style.Render(sp.glyph+" "+s.String())
	if tool != "" {
		line += "  " + tool
	}
	return line
}

func (m Model) bodyLines(w, avail int) []string {
	// Rows for the three lists: calls get most, then the quarantine queue.
	nCalls := max(avail*2/5-1, 2)
	nDec := max(avail/4-1, 2)
	nHeld := max(avail-nCalls-nDec-3, 2)
	var out []string

	out = append(out, styleHead.Render("Calls"))
	if len(m.calls) == 0 {
		out = append(out, styleDim.Render("  no calls yet"))
	}
	bw := min(max(w/5, 10), 30)
	for i := len(m.calls) - 1; i >= 0 && len(m.calls)-i <= nCalls; i-- {
		out = append(out, m.callLine(m.calls[i], bw))
	}

	out = append(out, styleHead.Render("Decisions"))
	ds := append(append([]Decision{}, m.vetoes...), m.decisions...)
	// Newest first; a veto without a time is taken as just now.
	slices.SortStableFunc(ds, func(a, b Decision) int {
		switch {
		case a.Time.IsZero() && b.Time.IsZero():
			return 0
		case a.Time.IsZero():
			return -1
		case b.Time.IsZero():
			return 1
		}
		return b.Time.Compare(a.Time)
	})
	if len(ds) == 0 {
		out = append(out, styleDim.Render("  none yet"))
	}
	for _, d := range ds[:min(len(ds), nDec)] {
		out = append(out, decisionLine(d))
	}

	head := fmt.Sprintf("Quarantine (%d)", len(m.held))
	out = append(out, styleHead.Render(head)+styleDim.Render("  enter details · a approve · r reject · ↑/↓ select"))
	if len(m.held) == 0 {
		out = append(out, styleDim.Render("  empty"))
	}
	// Scroll so the selected item is visible.
	sel := max(m.selectedIndex(), 0)
	first := max(sel-nHeld+1, 0)
	for i := first; i < len(m.held) && i < first+nHeld; i++ {
		h := m.held[i]
		line := fmt.Sprintf("%-26s %-28s %-5s %-20s %s", h.ID, h.Tool, h.Tier, h.Code, h.Reason)
		if b := h.Description.brief(); b != "" {
			line = fmt.Sprintf("%-26s %-28s %-5s %-20s %s  %s", h.ID, h.Tool, h.Tier, h.Code, b, h.Reason)
		}
		if h.ID == m.selected {
			out = append(out, styleSelected.Render("> "+line))
		} else {
			out = append(out, "  "+line)
		}
	}
	if n := len(m.held) - (first + nHeld); n > 0 {
		out = append(out, styleDim.Render(fmt.Sprintf("  … %d more", n)))
	}
	return out
}

func (m Model) callLine(c call, bw int) string {
	kind := "read "
	if c.write {
		kind = "write"
	}
	var mark string
	switch c.state {
	case callRunning:
		mark = styleWarn.Render("▶")
	case callOK:
		mark = styleOK.Render("✓")
	case callFailed:
		mark = styleBad.Render("✗")
	case callLost:
		mark = styleDim.Render("?")
	}
	line := fmt.Sprintf("  %s %-30s %s ", mark, c.tool, kind)
	switch {
	case c.total > 0:
		// Entering step index of total: the bar shows the steps entered.
		f := float64(min(c.index+1, c.total)) / float64(c.total)
		colour := "6"
		switch c.state {
		case callOK:
			colour, f = "2", 1
		case callFailed:
			colour = "1"
		case callLost:
			colour = "8"
		}
		b := bar(bw, colour)
		line += fmt.Sprintf("%s %d/%d %s", b.ViewAs(f), min(c.index+1, c.total), c.total, c.step)
	case c.state == callOK:
		line += bar(bw, "2").ViewAs(1)
	case c.state == callRunning:
		line += bar(bw, "6").ViewAs(0) + styleDim.Render(" starting")
	default:
		line += strings.Repeat(" ", bw)
	}
	switch c.state {
	case callOK:
		line += styleDim.Render(fmt.Sprintf("  %dms", c.durationMS))
	case callFailed:
		line += "  " + styleBad.Render(c.code) + " " + c.message
	case callLost:
		line += styleDim.Render("  end not seen (stream dropped)")
	}
	return line
}

func decisionLine(d Decision) string {
	at := "        "
	if !d.Time.IsZero() {
		at = d.Time.Local().Format("15:04:05")
	}
	st := styleDim
	switch d.Decision {
	case "allow", "allowed", "approved":
		st = styleOK
	case "deny", "denied", "vetoed", "rejected":
		st = styleBad
	case "quarantine", "quarantined", "held":
		st = styleWarn
	}
	review := ""
	switch d.Review {
	case "approved":
		review = styleOK.Render("approved ")
	case "rejected":
		review = styleBad.Render("rejected ")
	case "expired":
		review = styleDim.Render("expired ")
	case "pending":
		review = styleWarn.Render("pending ")
	}
	return fmt.Sprintf("  %s %s %s%-28s %-22s %s", at, st.Render(fmt.Sprintf("%-10s", d.Decision)), review, d.Tool, d.Code, d.Message)
}

// detailLines is the selected held call in full: what it would do in a
// person's units, why it was held, and its arguments.
func (m Model) detailLines(w int) []string {
	i := m.selectedIndex()
	if i < 0 {
		return []string{styleDim.Render("  the item is gone (decided or expired): esc to go back")}
	}
	h := m.held[i]
	out := heldLines(h, i, len(m.held))
	d := h.Description
	if d == nil {
		return append(out, styleDim.Render("  (ward sent no description of this call)"))
	}
	out = append(out, describedLines(d)...)
	out = append(out, argumentLines(d.Args, w)...)
	if m.confirm != "" {
		verb := strings.ToUpper(m.confirm[:1]) + m.confirm[1:]
		out = append(out, "", styleHalted.Render(" "+verb+" "+h.ID+"? ")+" y yes · n no")
	}
	return out
}

// detailRow is one labelled line of the detail view.
func detailRow(label, value string) string { return fmt.Sprintf("  %-11s %s", label, value) }

// heldLines are the detail view's head: the held call h (the i-th of n),
// its tool, session, time, and why it was held.
func heldLines(h Held, i, n int) []string {
	out := []string{styleHead.Render("Held call "+h.ID) + styleDim.Render(fmt.Sprintf("  %d of %d", i+1, n))}
	out = append(out, detailRow("tool", h.Tool+" ("+h.Tier+")"), detailRow("session", h.Session))
	if !h.Time.IsZero() {
		out = append(out, detailRow("held", h.Time.Local().Format("15:04:05")+styleDim.Render("  expires "+h.Expires.Local().Format("2006-01-02 15:04"))))
	}
	rule := h.Rule
	if rule == "" && h.Description != nil {
		rule = h.Description.Rule
	}
	out = append(out, detailRow("reason", styleWarn.Render(h.Code)+" "+h.Reason))
	if rule != "" {
		out = append(out, detailRow("rule", rule))
	}
	return out
}

// describedLines are what the call described by d would do: its summary,
// value, tokens, parties, balances, simulation and taint.
func describedLines(d *Description) []string {
	var out []string
	if d.Summary != "" {
		out = append(out, detailRow("does", d.Summary))
	}
	switch d.Value {
	case "":
	case "unpriced":
		out = append(out, detailRow("value", styleWarn.Render("unpriced")+styleDim.Render(" (no price feed values it)")))
		for _, u := range d.Unpriced {
			out = append(out, detailRow("", styleDim.Render(u)))
		}
	default:
		out = append(out, detailRow("value", styleTitle.Render(d.Value)))
	}
	for _, t := range d.Tokens {
		out = append(out, detailRow("token", t.text()))
		if warn := t.warning(); warn != "" {
			out = append(out, detailRow("", styleBad.Render("! "+warn)))
		}
	}
	for _, p := range d.Parties {
		name := p.Name
		if name == "" {
			name = styleWarn.Render("unknown address")
		}
		out = append(out, detailRow(p.Role, p.Address+"  "+name))
	}
	for _, b := range d.Balances {
		out = append(out, detailRow("balance", b))
	}
	if d.Simulation != "" {
		out = append(out, detailRow("simulation", styleWarn.Render(d.Simulation)))
	}
	taint := d.Taint
	if len(d.Provenance) > 0 {
		taint += "; not trusted: " + strings.Join(d.Provenance, ", ")
	}
	if d.Hijacked {
		taint += styleBad.Render("; follows instructions it read")
	}
	if taint != "" {
		out = append(out, detailRow("taint", taint))
	}
	return out
}

// argumentLines are the call's arguments args wrapped to the window's
// width w, the first line labelled.
func argumentLines(args string, w int) []string {
	var out []string
	width := max(w-15, 20)
	rs := []rune(args)
	for first := true; len(rs) > 0 || first; first = false {
		n := min(len(rs), width)
		label := ""
		if first {
			label = "arguments"
		}
		out = append(out, detailRow(label, string(rs[:n])))
		rs = rs[n:]
	}
	return out
}

func (m Model) statusLine() string {
	if m.status == "" {
		return ""
	}
	return styleInfo.Render(m.status)
}

func helpLines() []string {
	return []string{
		styleHead.Render("Help"),
		"  ↑/k, ↓/j   select a quarantined call",
		"  enter      show what the selected call would do (esc goes back)",
		"  a          approve the selected call, after y confirms (owner token)",
		"  r          reject the selected call, after y confirms (owner token)",
		"  ?          show or hide this help (esc hides it)",
		"  q, ctrl+c  quit",
		"",
		"  The agent: " + sprites[spriteThinking].style.Render(sprites[spriteThinking].glyph+" thinking") + " while a read runs, " +
			sprites[spriteExecuting].style.Render(sprites[spriteExecuting].glyph+" executing") + " while a write runs,",
		"  " + sprites[spriteSuccess].style.Render(sprites[spriteSuccess].glyph+" success") + " or " +
			sprites[spriteFailure].style.Render(sprites[spriteFailure].glyph+" failure") + " when a call ends.",
		"  Progress bars advance with each step a tool reports (tool:update).",
		"  Text from the daemon is shown with control characters and escape sequences removed.",
	}
}
