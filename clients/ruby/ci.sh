#!/usr/bin/env bash
# CI for the Ruby client and its Minitest and RSpec helpers, run from the repository root after
# `npm ci` built dist/ (.ci/run). Debian's ruby, ruby-minitest, ruby-rspec and bundler (installed
# here when missing); no RubyGems.org. It runs the client's own tests (Minitest, then RSpec) against
# a real sandbox process, then installs the gem the ways README.md gives, from a git clone of this
# checkout: `gem build` + `gem install --local`, and Bundler's `git:` with `glob:`, and runs a suite
# with each. Everything it makes is in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

missing=()
command -v git >/dev/null || missing+=(git)
command -v ruby >/dev/null || missing+=(ruby)
ruby -e 'require "minitest"' 2>/dev/null || missing+=(ruby-minitest)
command -v rspec >/dev/null || missing+=(ruby-rspec)
command -v bundle >/dev/null || missing+=(bundler)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# The sandbox the tests start (once per run): this checkout's server, unless told otherwise.
export JIGUANG_SANDBOX_COMMAND="${JIGUANG_SANDBOX_COMMAND:-node $ROOT/dist/server.js}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The client's own tests, on this working tree's lib/. A failing test leaves its app's document
#    in clients/ruby/test/reports/jiguang-sandbox/ (Minitest) or spec/reports/jiguang-sandbox/.
(cd clients/ruby && ruby -w -e 'Dir["./test/*_test.rb"].sort.each { |f| require f }' && rspec --no-color spec)

# 2. The README's installs, from a git clone of this checkout (standing for the git host).
if [ -n "$(git status --porcelain -- clients/ruby)" ]; then
  echo "clients/ruby has uncommitted changes: the installs from git take the last commit" >&2
fi
git clone -q "$ROOT" "$work/origin"
ref=$(git rev-parse HEAD)
git -C "$work/origin" checkout -q "$ref"
# Gems go to a folder of this run; Debian's (minitest, rspec) stay visible.
export GEM_HOME="$work/gems" GEM_PATH="$work/gems:$(ruby -e 'print Gem.path.join(":")')"
export BUNDLE_USER_HOME="$work/bundle-home" BUNDLE_APP_CONFIG="$work/bundle-config"
# The README's suites (its ```ruby blocks: Minitest, then RSpec), run on each install.
mkdir "$work/suite"
awk '/^```ruby$/ { n++; on = 1; next } /^```/ { on = 0 } on { print > (dir "/readme_" n ".rb") }' \
  dir="$work/suite" clients/ruby/README.md
mv "$work/suite/readme_1.rb" "$work/suite/sign_up_test.rb"
mv "$work/suite/readme_2.rb" "$work/suite/sign_up_spec.rb"

#    a) gem build + gem install --local
(cd "$work/origin/clients/ruby" && gem build --silent jiguang_sandbox.gemspec -o "$work/jiguang_sandbox.gem")
gem install --local --silent --no-document "$work/jiguang_sandbox.gem"
(cd "$work/suite" && ruby -e 'gem "jiguang_sandbox", "0.1.0"; require "./sign_up_test"' &&
  rspec --no-color sign_up_spec.rb)
gem uninstall --silent --executables jiguang_sandbox

#    b) Bundler: the git repository, and where in it the gemspec is (glob:); no RubyGems.org
mkdir "$work/bundled"
cat >"$work/bundled/Gemfile" <<EOF
source "https://rubygems.org"
gem "jiguang_sandbox", git: "file://$work/origin", glob: "clients/ruby/*.gemspec", ref: "$ref"
gem "minitest"
gem "rspec"
EOF
export BUNDLE_SILENCE_ROOT_WARNING=1
(cd "$work/bundled" && { bundle install --local --quiet >"$work/bundle.log" 2>&1 || { cat "$work/bundle.log"; exit 1; }; } &&
  cp "$work"/suite/sign_up_* . && bundle exec ruby sign_up_test.rb && bundle exec rspec --no-color sign_up_spec.rb)
echo "clients/ruby: tests passed; installed from file://…@$ref (gem build + gem install, Bundler git: glob:)"
