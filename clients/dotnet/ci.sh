#!/usr/bin/env bash
# CI of the C# client (run from the repository's root by .ci/run, after npm ci built dist/): Debian's
# Mono, NUnit and nuget when missing, the client's own tests against a real sandbox process (a
# deliberately failing test run in a child nunit-console, its export and link checked), then the NuGet
# package made and installed from a git clone of the checkout, as README.md says, and used by a test
# compiled against the installed package alone. The .NET SDK is not in Debian: where a dotnet is on
# the PATH, the same sources are built, tested and packed with it too.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/clients/dotnet
[ -f "$ROOT/dist/server.js" ] || { echo "clients/dotnet/ci.sh: no dist/server.js: run npm ci (or npm run build) first" >&2; exit 1; }
export JIGUANG_SANDBOX_COMMAND=${JIGUANG_SANDBOX_COMMAND:-node $ROOT/dist/server.js}
START=$(date +%s)

need=()
command -v mcs >/dev/null || need+=(mono-devel)
ls /usr/lib/cli/nunit.framework-2.6*/nunit.framework.dll >/dev/null 2>&1 || need+=(libnunit-cil-dev)
command -v nunit-console >/dev/null || need+=(nunit-console)
command -v nuget >/dev/null || need+=(nuget)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

# One version: the sandbox's (package.json), the client's constant (the tests check it against the
# running sandbox's /_sandbox/info), the .csproj's and the .nuspec's.
want=$(node -p "require('$ROOT/package.json').version")
constant=$(sed -n 's/.*Client = "\(.*\)";.*/\1/p' "$HERE/src/JiguangSandbox/Version.cs")
csproj=$(sed -n 's:.*<Version>\(.*\)</Version>.*:\1:p' "$HERE/src/JiguangSandbox/JiguangSandbox.csproj")
nuspec=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$HERE/JiguangSandbox.nuspec")
[ "$constant" = "$want" ] && [ "$csproj" = "$want" ] && [ "$nuspec" = "$want" ] || {
  echo "clients/dotnet: Version.Client $constant, .csproj $csproj, .nuspec $nuspec, package.json $want" >&2
  exit 1
}

"$HERE/build.sh" test -noresult

# Packed and installed from a clone of the checkout, as README.md says.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone --quiet --depth 1 "file://$ROOT" "$WORK/jiguang-sandbox"
"$WORK/jiguang-sandbox/clients/dotnet/build.sh" pack "$WORK/nupkgs" >/dev/null
mkdir -p "$WORK/consumer" && cd "$WORK/consumer"
nuget install JiguangSandbox -Source "$WORK/nupkgs" -OutputDirectory packages -NonInteractive
DLL=packages/JiguangSandbox.$want/lib/net45/JiguangSandbox.dll
[ -f "$DLL" ] || { echo "clients/dotnet: nuget install left no $DLL" >&2; exit 1; }
cat >InstalledTest.cs <<'CS'
using System;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;
using JiguangSandbox;
using NUnit.Framework;

[SetUpFixture]
public class RunSandbox : SandboxRun { }

public class InstalledTest : SandboxTest
{
    [Test]
    public async Task TextsACode()
    {
        using (var http = new HttpClient())
        using (var request = new HttpRequestMessage(HttpMethod.Post, Sandbox.SmsBaseUrl + "/v1/codes"))
        {
            request.Headers.TryAddWithoutValidation("Authorization", Sandbox.Authorization);
            request.Content = new StringContent("{\"mobile\":\"13800138000\",\"temp_id\":1}", Encoding.UTF8, "application/json");
            using (var answer = await http.SendAsync(request)) Assert.That((int)answer.StatusCode, Is.EqualTo(200));
        }
        var code = await Sandbox.LatestCodeAsync("13800138000", TimeSpan.FromSeconds(5));
        Assert.That(code.GetString("code").Length, Is.EqualTo(6));
    }
}
CS
NUNIT=$(ls /usr/lib/cli/nunit.framework-2.6*/nunit.framework.dll | head -n 1)
mcs -target:library -out:InstalledTest.dll -r:"$DLL" -r:"$NUNIT" -r:System.Net.Http InstalledTest.cs
cp "$DLL" "$NUNIT" .
nunit-console -nologo -noresult InstalledTest.dll

# The .NET SDK's build of the same sources, where there is one (not in Debian: not on this CI's machine).
if command -v dotnet >/dev/null; then
  cd "$HERE"
  dotnet test tests/JiguangSandbox.Tests
  dotnet pack src/JiguangSandbox -c Release -o "$WORK/dotnet-nupkgs"
else
  echo "clients/dotnet: no dotnet on the PATH: the .NET SDK's build and tests (dotnet test, dotnet pack) not run here"
fi
echo "clients/dotnet: ok in $(($(date +%s) - START)) s"
