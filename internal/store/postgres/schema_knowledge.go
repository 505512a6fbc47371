package postgres

// schemaKnowledge is version 1's knowledge pipeline: quarantine, the
// Grimoire, and what ingestion learns (lessons, series, memory, skills,
// reputation, influences, clade), and the pins of upstream tools.
const schemaKnowledge = `
`
