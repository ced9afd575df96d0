using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace JiguangSandbox
{
    /// <summary>
    /// A base class for NUnit fixtures that use the sandbox: each test gets <see cref="Sandbox"/>, an
    /// app of its own on the run's sandbox (<see cref="SandboxServer.Shared"/>: found or started on
    /// first use). When the test passes, its app is removed; when it fails, its app is kept, its
    /// document is exported to <c>jiguang-sandbox/&lt;test's full name&gt;.json</c> in NUnit's work
    /// directory (where TestResult.xml goes; <c>JIGUANG_SANDBOX_REPORTS</c> when set), attached to the
    /// result (NUnit 3), and the web UI's link to it is printed.
    /// <code>
    /// public class SignUpTests : SandboxTest
    /// {
    ///     [Test]
    ///     public async Task TextsACode()
    ///     {
    ///         // the application under test, pointed at Sandbox.SmsBaseUrl with Sandbox.AppKey / Sandbox.MasterSecret
    ///         var code = await Sandbox.LatestCodeAsync("13800138000", TimeSpan.FromSeconds(5));
    ///     }
    /// }
    /// </code>
    /// Built with Mono's mcs and NUnit 2.6, define NUNIT2; with the .NET SDK it is NUnit 3 or 4.
    /// </summary>
    public abstract class SandboxTest
    {
        static readonly Regex UnsafeInName = new Regex("[^A-Za-z0-9._-]");
        static readonly HashSet<string> Written = new HashSet<string>();

        /// <summary>The test's own app: its client, credentials and base URLs.</summary>
        protected SandboxClient Sandbox { get; private set; }

        /// <summary>The run's sandbox.</summary>
        protected SandboxServer SandboxServer { get { return SandboxServer.Shared; } }

        [SetUp]
        public void CreateSandboxApp()
        {
            Sandbox = SandboxServer.Shared.CreateAppAsync().GetAwaiter().GetResult();
        }

        [TearDown]
        public void FinishSandboxApp()
        {
            var client = Sandbox;
            Sandbox = null;
            if (client == null) return;
#if NUNIT2
            var failed = TestContext.CurrentContext.Result.Status == TestStatus.Failed;
#else
            var failed = TestContext.CurrentContext.Result.Outcome.Status == NUnit.Framework.Interfaces.TestStatus.Failed;
#endif
            if (!failed)
            {
                try
                {
                    client.DeleteAppAsync().GetAwaiter().GetResult();
                }
                catch (SandboxException err)
                {
                    Console.Error.WriteLine("jiguang-sandbox: could not remove the app " + client.AppKey + ": " + err.Message);
                }
                return;
            }
            var test = TestContext.CurrentContext.Test.FullName;
            string saved;
            try
            {
                var file = ReportFile(test);
                Directory.CreateDirectory(Path.GetDirectoryName(file));
                File.WriteAllText(file, client.ExportAppAsync().GetAwaiter().GetResult());
                saved = "app " + client.AppKey + " exported to " + file;
#if !NUNIT2
                TestContext.AddTestAttachment(file, "the app of jiguang-sandbox (" + client.UiLink + ")");
#endif
            }
            catch (Exception err)
            {
                saved = "app " + client.AppKey + " could not be exported: " + err.Message;
            }
            Console.WriteLine("jiguang-sandbox: " + test + " failed; " + saved + "; web UI: " + client.UiLink);
        }

        /// <summary>&lt;reports&gt;/&lt;test's full name&gt;.json; a second failure of that name in the run adds -2, -3…</summary>
        static string ReportFile(string test)
        {
            var dir = ReportsDir();
            var name = UnsafeInName.Replace(test, "_");
            lock (Written)
            {
                var file = Path.Combine(dir, name + ".json");
                for (var n = 2; !Written.Add(file); n++) file = Path.Combine(dir, name + "-" + n + ".json");
                return file;
            }
        }

        /// <summary>JIGUANG_SANDBOX_REPORTS, else jiguang-sandbox in NUnit's work directory.</summary>
        public static string ReportsDir()
        {
            var given = Environment.GetEnvironmentVariable("JIGUANG_SANDBOX_REPORTS");
            if (!string.IsNullOrEmpty(given)) return Path.GetFullPath(given);
            return Path.Combine(TestContext.CurrentContext.WorkDirectory, "jiguang-sandbox");
        }
    }
}
