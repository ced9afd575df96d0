#!/usr/bin/env bash
# Builds the C# client with Mono (Debian: mono-devel libnunit-cil-dev nunit-console, and nuget for the
# package), the sources the .NET SDK builds from src/JiguangSandbox/JiguangSandbox.csproj, with NUNIT2
# defined (NUnit 2.6's API where it differs from NUnit 3's):
#
#   ./build.sh build            build/JiguangSandbox.dll (+ its XML documentation)
#   ./build.sh test [args…]     builds the tests and runs them with nunit-console (the sandbox comes from
#                               JIGUANG_SANDBOX_URL, a Docker image or JIGUANG_SANDBOX_COMMAND)
#   ./build.sh pack [folder]    the NuGet package, nuget pack JiguangSandbox.nuspec (build/ unless given)
set -euo pipefail
cd "$(dirname "$0")"

NUNIT_FRAMEWORK=${NUNIT_FRAMEWORK:-$(ls /usr/lib/cli/nunit.framework-2.6*/nunit.framework.dll 2>/dev/null | head -n 1)}
[ -f "$NUNIT_FRAMEWORK" ] || { echo "build.sh: no nunit.framework.dll (apt-get install libnunit-cil-dev, or set NUNIT_FRAMEWORK)" >&2; exit 1; }
VERSION=$(sed -n 's/.*Client = "\(.*\)";.*/\1/p' src/JiguangSandbox/Version.cs)
REFS=(-r:System.Net.Http -r:System.Numerics "-r:$NUNIT_FRAMEWORK")

build_lib() {
  mkdir -p build
  mcs -target:library -d:NUNIT2 -warnaserror+ -nowarn:1591 -doc:build/JiguangSandbox.xml \
    -out:build/JiguangSandbox.dll "${REFS[@]}" src/JiguangSandbox/*.cs
}

run_tests() {
  mcs -target:library -d:NUNIT2 -warnaserror+ -out:build/JiguangSandbox.Tests.dll -r:build/JiguangSandbox.dll \
    "${REFS[@]}" tests/JiguangSandbox.Tests/*.cs
  cp "$NUNIT_FRAMEWORK" build/
  (cd build && nunit-console -nologo JiguangSandbox.Tests.dll "$@")
}

case "${1:-build}" in
  build) build_lib ;;
  test) shift; build_lib; run_tests "$@" ;;
  pack)
    build_lib
    out=${2:-build}
    mkdir -p "$out"
    nuget pack JiguangSandbox.nuspec -Version "$VERSION" -OutputDirectory "$out" -NonInteractive >/dev/null
    echo "$out/JiguangSandbox.$VERSION.nupkg"
    ;;
  *) echo "usage: $0 build | test [nunit-console args…] | pack [folder]" >&2; exit 2 ;;
esac
