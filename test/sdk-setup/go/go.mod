// docs/sdk-setup.md's Go snippet as a test (test/sdk-setup/sdk-setup.test.ts copies this folder,
// the snippet and the stand-in for cavlabs/jiguang-sdk-go into one folder and runs go test there).
module sdksetup

go 1.16

require github.com/cavlabs/jiguang-sdk-go v1.0.8

replace github.com/cavlabs/jiguang-sdk-go => ./stand-ins
