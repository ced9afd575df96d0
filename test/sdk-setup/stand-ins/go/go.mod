// Stands in for github.com/cavlabs/jiguang-sdk-go v1.0.8 (test/sdk-setup: the module the Go
// snippet of docs/sdk-setup.md imports, replaced by this folder).
module github.com/cavlabs/jiguang-sdk-go

go 1.16
