module github.com/jiguang-sandbox/jiguang-sandbox/clients/go

go 1.19
