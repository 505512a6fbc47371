package postgres

// schemaState is version 1's state that decisions depend on: principals
// and tokens, sessions and their ledgers, held calls, spend and rate
// windows, withheld outputs.
const schemaState = `
`
