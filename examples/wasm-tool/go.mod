module example.com/wasm-tool

go 1.26
