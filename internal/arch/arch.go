// Package arch holds ward's architecture rules as tests: which layer each
// package belongs to, and that imports only go downward. It has no code.
package arch
