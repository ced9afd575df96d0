#!/usr/bin/env bash
# CI of the Java client (run from the repository's root by .ci/run, after npm ci built dist/): Debian's
# JDK and junit5 when missing, the client's own tests against a real sandbox process (a deliberately
# failing test run in a JUnit run of its own, its export and link checked), then the install from a
# git clone of the checkout, as README.md says, used by a test compiled against the installed jar alone.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/clients/java
[ -f "$ROOT/dist/server.js" ] || { echo "clients/java/ci.sh: no dist/server.js: run npm ci (or npm run build) first" >&2; exit 1; }
export JIGUANG_SANDBOX_COMMAND=${JIGUANG_SANDBOX_COMMAND:-node $ROOT/dist/server.js}
START=$(date +%s)

need=()
command -v javac >/dev/null || need+=(default-jdk-headless)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || need+=(junit5)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

# One version: the sandbox's (package.json), the pom's, the client's constant (the tests check the
# constant against the running sandbox's /_sandbox/info).
want=$(node -p "require('$ROOT/package.json').version")
pom=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$HERE/pom.xml" | head -n 1)
constant=$(sed -n 's/.*CLIENT = "\(.*\)";.*/\1/p' "$HERE/src/main/java/io/github/jiguangsandbox/Version.java")
[ "$pom" = "$want" ] && [ "$constant" = "$want" ] || {
  echo "clients/java: pom.xml says $pom, Version.CLIENT $constant, package.json $want" >&2
  exit 1
}

"$HERE/build.sh" test --details=summary --disable-ansi-colors

# Installed from a clone of the checkout, as README.md says.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone --quiet --depth 1 "file://$ROOT" "$WORK/jiguang-sandbox"
(cd "$WORK/jiguang-sandbox/clients/java" && ./build.sh install "$WORK/m2" >/dev/null)
JAR=$WORK/m2/io/github/jiguang-sandbox/jiguang-sandbox-client/$want/jiguang-sandbox-client-$want.jar
[ -f "$JAR" ] && [ -f "${JAR%.jar}.pom" ] || { echo "clients/java: build.sh install left no $JAR and its pom" >&2; exit 1; }
mkdir -p "$WORK/consumer/src" "$WORK/consumer/classes"
cat >"$WORK/consumer/src/InstalledTest.java" <<'JAVA'
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.jiguangsandbox.SandboxClient;
import io.github.jiguangsandbox.junit5.JiguangSandbox;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@JiguangSandbox
class InstalledTest {
    @Test
    void textsACode(SandboxClient sb) throws Exception {
        HttpResponse<String> sent = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create(sb.smsBaseUrl() + "/v1/codes"))
                .header("Authorization", sb.authorization())
                .POST(HttpRequest.BodyPublishers.ofString("{\"mobile\":\"13800138000\",\"temp_id\":1}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, sent.statusCode(), sent.body());
        assertEquals(6, sb.latestCode("13800138000", Duration.ofSeconds(5)).getString("code").length());
    }
}
JAVA
J=/usr/share/java
javac --release 17 -d "$WORK/consumer/classes" -cp "$JAR:$J/junit-jupiter-api.jar:$J/apiguardian-api.jar:$J/opentest4j.jar:$J/junit-platform-commons.jar" \
  "$WORK/consumer/src/InstalledTest.java"
java -jar "$J/junit-platform-console-standalone.jar" --disable-banner --details=summary --disable-ansi-colors \
  --fail-if-no-tests --class-path "$JAR:$WORK/consumer/classes" --select-class InstalledTest

# The pom, where Maven is: offline it can only be validated (its plugins come from Maven Central).
if command -v mvn >/dev/null; then
  (cd "$WORK/jiguang-sandbox/clients/java" && mvn -B -o -q -Dmaven.repo.local="$WORK/m2" validate)
  echo "clients/java: pom.xml validated offline (mvn -o validate); mvn package needs Maven Central's plugins"
fi
echo "clients/java: ok in $(($(date +%s) - START)) s"
