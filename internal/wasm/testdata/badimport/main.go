//go:build wasip1

// Command badimport imports a host function ward does not provide.
package main

//go:wasmimport ward_v1 exec_write
func execWrite() int32

//go:wasmexport ward_run
func run() int32 { return execWrite() }

func main() {}
