#!/usr/bin/env bash
# CI of the Go client (run from the repository's root by .ci/run, after npm ci built dist/): Debian's
# golang-go when missing, gofmt and go vet, the client's own tests against a real sandbox process (a
# deliberately failing test run in a child run of the test binary, its export and link checked), then
# the installs README.md gives, from a git clone of the checkout, each used by a throwaway module's test.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/clients/go
MODULE=github.com/jiguang-sandbox/jiguang-sandbox/clients/go
[ -f "$ROOT/dist/server.js" ] || { echo "clients/go/ci.sh: no dist/server.js: run npm ci (or npm run build) first" >&2; exit 1; }
export JIGUANG_SANDBOX_COMMAND=${JIGUANG_SANDBOX_COMMAND:-node $ROOT/dist/server.js}
START=$(date +%s)

if ! command -v go >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go
fi

# One version: the sandbox's (package.json) and the client's constant (the tests check it against the
# running sandbox's /_sandbox/info).
want=$(node -p "require('$ROOT/package.json').version")
constant=$(sed -n 's/^const Version = "\(.*\)"$/\1/p' "$HERE/version.go")
[ "$constant" = "$want" ] || { echo "clients/go: Version is $constant, package.json $want" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
# the module cache and git settings of this run only: nothing from a proxy, nothing left behind
export GOPATH=$WORK/gopath GOMODCACHE=$WORK/gopath/pkg/mod GOFLAGS=-modcacherw GOPROXY=direct GOSUMDB=off
export GOPRIVATE=github.com/jiguang-sandbox GIT_CONFIG_GLOBAL=$WORK/gitconfig GIT_CONFIG_NOSYSTEM=1

cd "$HERE"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "clients/go: gofmt would change: $unformatted" >&2; exit 1; }
go vet ./...
go test -count=1 ./...

# Installed from a clone of the checkout, as README.md says: a release tag, go get through git (the
# clone standing for the GitHub URL), and a replace directive.
git clone --quiet --depth 1 "file://$ROOT" "$WORK/jiguang-sandbox"
git -C "$WORK/jiguang-sandbox" tag "clients/go/v$want"
git config --file "$WORK/gitconfig" url."file://$WORK/jiguang-sandbox".insteadOf https://github.com/jiguang-sandbox/jiguang-sandbox
consumer() {
  rm -rf "$WORK/consumer" && mkdir -p "$WORK/consumer" && cd "$WORK/consumer"
  printf 'module example.com/consumer\n\ngo 1.19\n' >go.mod
  cat >installed_test.go <<'GO'
package consumer

import (
	"bytes"
	"net/http"
	"os"
	"testing"
	"time"

	jiguangsandbox "github.com/jiguang-sandbox/jiguang-sandbox/clients/go"
)

func TestMain(m *testing.M) { os.Exit(jiguangsandbox.Main(m)) }

func TestTextsACode(t *testing.T) {
	sb := jiguangsandbox.New(t)
	req, _ := http.NewRequest("POST", sb.SMSBaseURL()+"/v1/codes", bytes.NewBufferString(`{"mobile":"13800138000","temp_id":1}`))
	req.Header.Set("Authorization", sb.Authorization())
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("send: %v %v", res, err)
	}
	res.Body.Close()
	if code := sb.LatestCode("13800138000", 5*time.Second); len(code.Code) != 6 {
		t.Fatalf("code %+v", code)
	}
}
GO
}

consumer
go get "$MODULE@v$want"
grep -q "$MODULE v$want" go.mod || { echo "clients/go: go get did not require $MODULE v$want" >&2; exit 1; }
go vet ./... && go test -count=1 ./...

consumer
rm "$WORK/gitconfig" # no git, no proxy: the clone alone
GOPROXY=off go mod edit -require="$MODULE@v$want" -replace="$MODULE=$WORK/jiguang-sandbox/clients/go"
GOPROXY=off go vet ./...
GOPROXY=off go test -count=1 ./...

echo "clients/go: ok in $(($(date +%s) - START)) s"
