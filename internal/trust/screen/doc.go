// Package screen reads third-party text the way a model would, for what it
// should not obey: Instructions finds instruction-like text (overrides,
// text addressed to the model, task hijacking, chat-role markup, requests
// to call tools, hidden characters), Knowledge the signals of poisoned
// knowledge entries, among them text that turns to its reader (see
// reader.go) and chat, tool or policy markup; a phrase quoted by a
// sentence that tells the reader to refuse it is a mention, not an
// instruction (see mention.go). Both read inside base64, hex, %-, \u- and
// HTML-encoded text and past zero-width and tag characters; the decoders
// are exported for package trust, which reads values the same way.
//
// It is a heuristic with a linear cost in the text, used by the trust
// model (a source with instructions is never vouched for) and by knowledge
// ingestion's content screen.
package screen
