#!/usr/bin/env bash
# CI for the PHP client and PHPUnit trait, run from the repository root after `npm ci` built dist/
# (.ci/run). Debian's php-cli, php-curl, phpunit and composer (installed here when missing); no
# Packagist. It runs the client's own tests against a real sandbox process, then installs the
# package the ways README.md gives, from a git clone of this checkout, with Composer offline, and
# runs a suite with each install. Everything it makes is in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD

missing=()
command -v git >/dev/null || missing+=(git)
command -v php >/dev/null || missing+=(php-cli)
php -m 2>/dev/null | grep -qx curl || missing+=(php-curl)
command -v phpunit >/dev/null || missing+=(phpunit)
command -v composer >/dev/null || missing+=(composer)
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

# 1. The client's own tests, on this working tree's sources (tests/bootstrap.php autoloads them).
#    A failing test leaves its app's document in clients/php/build/jiguang-sandbox/.
(cd clients/php && phpunit)

# 2. The README's installs, from a git clone of this checkout (standing for the git host), with
#    Composer offline: Packagist off (the git clone is the only repository), a home and cache of its
#    own. (COMPOSER_DISABLE_NETWORK would refuse the file:// clone too.)
if [ -n "$(git status --porcelain -- clients/php)" ]; then
  echo "clients/php has uncommitted changes: the installs from git take the last commit" >&2
fi
git clone -q "$ROOT" "$work/origin"
ref=$(git rev-parse HEAD)
export COMPOSER_HOME="$work/composer" COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1
# The README's suite (its ```php block), run on each install.
awk '/^```php$/ { on = 1; next } /^```/ { on = 0 } on' clients/php/README.md >"$work/SignUpTest.php"
install_and_test() {  # $1: a project folder whose composer.json names the repository
  (cd "$1" && composer install --quiet --no-progress && cp "$work/SignUpTest.php" . &&
    phpunit --bootstrap vendor/autoload.php SignUpTest.php)
}

#    a) a "package" repository: the git repository, and where in it the sources are
mkdir "$work/package-repo"
cat >"$work/package-repo/composer.json" <<EOF
{
    "repositories": [
        {"packagist.org": false},
        {
            "type": "package",
            "package": {
                "name": "jiguang-sandbox/client",
                "version": "0.1.0",
                "source": {"type": "git", "url": "file://$work/origin", "reference": "$ref"},
                "autoload": {"psr-4": {"JiguangSandbox\\\\": "clients/php/src/"}}
            }
        }
    ],
    "require-dev": {"jiguang-sandbox/client": "0.1.0"}
}
EOF
install_and_test "$work/package-repo"

#    b) a "path" repository on a clone's clients/php: the package's own composer.json
git -C "$work/origin" checkout -q "$ref"
mkdir "$work/path-repo"
cat >"$work/path-repo/composer.json" <<EOF
{
    "repositories": [
        {"packagist.org": false},
        {"type": "path", "url": "$work/origin/clients/php", "options": {"symlink": false}}
    ],
    "require-dev": {"jiguang-sandbox/client": "*@dev"}
}
EOF
install_and_test "$work/path-repo"
echo "clients/php: tests passed; installed with Composer from file://…@$ref (package and path repositories)"
