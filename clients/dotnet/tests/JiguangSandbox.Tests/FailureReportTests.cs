using System;
using System.Diagnostics;
using System.IO;
using System.Net.Http;
using System.Reflection;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>
    /// A failing test's app is kept: DeliberatelyFailing runs in a test run of its own (a child NUnit
    /// console: Mono's nunit-console; with the .NET SDK, dotnet test on this project) against this
    /// run's sandbox, and what it leaves is checked: the printed line, the export file, the link.
    /// </summary>
    [TestFixture]
    public class FailureReportTests : SandboxTest
    {
        static readonly Regex Line = new Regex(
            "jiguang-sandbox: JiguangSandbox\\.Tests\\.DeliberatelyFailing\\.ExpectsATextThatNeverCame failed; app ([0-9a-f]{24}) exported to (\\S+); web UI: (\\S+)");

        [Test]
        public async Task AFailingTestIsExportedAndLinked()
        {
            var reports = Path.Combine(Path.GetTempPath(), "jiguang-sandbox-reports-" + Guid.NewGuid().ToString("N"));
            try
            {
                var output = RunChild(reports);
                Console.WriteLine("the child run:\n" + output);
                Assert.That(output.Contains("nothing in /_sandbox/sms/messages matching"), Is.True, "the failure says what it waited for");
                var line = Line.Match(output);
                Assert.That(line.Success, Is.True, "the line a failing test prints");
                var appKey = line.Groups[1].Value;
                var file = line.Groups[2].Value;
                var link = line.Groups[3].Value;
                Assert.That(file, Is.EqualTo(Path.Combine(reports, "JiguangSandbox.Tests.DeliberatelyFailing.ExpectsATextThatNeverCame.json")));
                Assert.That(link, Is.EqualTo(SandboxServer.Url + "/_sandbox/ui/?app=" + appKey));

                // the document is the failed test's app, with the refusal and its reason
                var document = File.ReadAllText(file);
                var parsed = Json.ParseObject(document);
                Assert.That(parsed.GetString("format"), Is.EqualTo("jiguang-sandbox/app"));
                Assert.That(parsed.GetString("app_key"), Is.EqualTo(appKey));
                Assert.That((await Sandbox.ImportAppAsync(document)).GetBool("imported"), Is.True);
                var refused = (await Sandbox.RequestsAsync(new { code = 50013 })).Items[0];
                Assert.That(refused.GetString("reason").Contains("template 99"), Is.True, refused.ToString());

                // the link opens the web UI (its page is public; the app stays in the sandbox for it)
                using (var http = new HttpClient())
                using (var page = await http.GetAsync(link))
                    Assert.That((int)page.StatusCode, Is.EqualTo(200));
            }
            finally
            {
                if (Directory.Exists(reports)) Directory.Delete(reports, true);
            }
        }

        /// <summary>Runs DeliberatelyFailing in a test run of its own; answers what it printed.</summary>
        string RunChild(string reports)
        {
#if NUNIT2
            // nunit-console runs a shadow copy: CodeBase is where the assembly was built
            var assembly = new Uri(typeof(DeliberatelyFailing).Assembly.CodeBase).LocalPath;
            var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("NUNIT_CONSOLE") ?? "nunit-console",
                "\"" + assembly + "\" -nologo -noresult -run=JiguangSandbox.Tests.DeliberatelyFailing");
#else
            // bin/<configuration>/<framework>/ of this project: dotnet test on it, without building again
            var project = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(typeof(DeliberatelyFailing).Assembly.Location), "..", "..", ".."));
            var start = new ProcessStartInfo("dotnet",
                "test \"" + project + "\" --no-build --logger \"console;verbosity=detailed\" --filter FullyQualifiedName~JiguangSandbox.Tests.DeliberatelyFailing");
#endif
            start.UseShellExecute = false;
            start.RedirectStandardOutput = true;
            start.RedirectStandardError = true;
            start.EnvironmentVariables["JIGUANG_SANDBOX_CHILD_RUN"] = "1";
            start.EnvironmentVariables["JIGUANG_SANDBOX_URL"] = SandboxServer.Url;
            start.EnvironmentVariables["JIGUANG_SANDBOX_REPORTS"] = reports;
            using (var child = Process.Start(start))
            {
                var stderr = child.StandardError.ReadToEndAsync();
                var stdout = child.StandardOutput.ReadToEnd();
                child.WaitForExit();
                Assert.That(child.ExitCode, Is.Not.EqualTo(0), "the child run fails:\n" + stdout + stderr.Result);
                return stdout + stderr.Result;
            }
        }
    }
}
