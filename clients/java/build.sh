#!/usr/bin/env bash
# Builds the Java client with javac and JUnit's jars, no Maven Central needed (Debian: default-jdk-headless
# junit5; JUNIT_JARS names another folder holding them). What `mvn package|test|install` does with pom.xml:
#
#   ./build.sh jar              target/jiguang-sandbox-client-<version>.jar
#   ./build.sh test [args…]     compiles the tests and runs them with the JUnit console launcher, all of
#                               them unless the args select some (--select-class …); the sandbox comes from
#                               JIGUANG_SANDBOX_URL, a Docker image or JIGUANG_SANDBOX_COMMAND
#   ./build.sh install [repo]   the jar and pom.xml into a Maven repository folder (~/.m2/repository unless
#                               given), where Maven and Gradle (mavenLocal()) find them as `mvn install` leaves them
set -euo pipefail
cd "$(dirname "$0")"

JUNIT_JARS=${JUNIT_JARS:-/usr/share/java}
GROUP=io.github.jiguang-sandbox
ARTIFACT=jiguang-sandbox-client
VERSION=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1)
JAR=target/$ARTIFACT-$VERSION.jar

junit_path() {
  local jars=() name
  for name in "$@"; do
    [ -f "$JUNIT_JARS/$name.jar" ] || { echo "build.sh: $JUNIT_JARS/$name.jar is missing (apt-get install junit5, or set JUNIT_JARS)" >&2; exit 1; }
    jars+=("$JUNIT_JARS/$name.jar")
  done
  local IFS=:
  echo "${jars[*]}"
}

build_jar() {
  rm -rf target/classes && mkdir -p target/classes
  javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d target/classes \
    -cp "$(junit_path junit-jupiter-api junit-platform-commons apiguardian-api opentest4j)" \
    $(find src/main/java -name '*.java')
  printf 'Implementation-Title: %s\nImplementation-Version: %s\nAutomatic-Module-Name: io.github.jiguangsandbox\n' \
    "$ARTIFACT" "$VERSION" >target/MANIFEST.MF
  jar --create --file "$JAR" --manifest target/MANIFEST.MF -C target/classes .
  echo "$JAR"
}

run_tests() {
  local api
  api=$(junit_path junit-jupiter-api junit-jupiter-params junit-platform-commons junit-platform-engine junit-platform-launcher apiguardian-api opentest4j)
  rm -rf target/test-classes && mkdir -p target/test-classes
  javac --release 17 -Xlint:all -Werror -encoding UTF-8 -d target/test-classes -cp "$JAR:$api" \
    $(find src/test/java -name '*.java')
  # every test class, unless the arguments select some (--select-class, --select-method…)
  local scan=(--scan-classpath target/test-classes) arg
  for arg in "$@"; do case "$arg" in --select*) scan=() ;; esac; done
  java -jar "$(junit_path junit-platform-console-standalone)" --disable-banner --details=tree \
    --class-path "$JAR:target/test-classes" "${scan[@]}" --reports-dir target/test-reports "$@"
}

install_into() {
  local repo=${1:-$HOME/.m2/repository}
  local dir="$repo/${GROUP//.//}/$ARTIFACT/$VERSION"
  mkdir -p "$dir"
  cp "$JAR" "$dir/$ARTIFACT-$VERSION.jar"
  cp pom.xml "$dir/$ARTIFACT-$VERSION.pom"
  echo "$dir"
}

case "${1:-jar}" in
  jar) build_jar ;;
  test) shift; build_jar >/dev/null; run_tests "$@" ;;
  install) build_jar >/dev/null; install_into "${2:-}" ;;
  *) echo "usage: $0 jar | test [console launcher args…] | install [maven repository folder]" >&2; exit 2 ;;
esac
