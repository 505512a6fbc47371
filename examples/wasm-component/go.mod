module example.com/wasm-component

go 1.26
