using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Text.RegularExpressions;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>Where the sandbox comes from, without the fixture: a process of its own, a URL, a command that fails.</summary>
    [TestFixture]
    public class SandboxServerTests
    {
        /// <summary>The command this run's sandboxes are started with (CI: the checkout's dist/server.js).</summary>
        static string Command
        {
            get { return Environment.GetEnvironmentVariable("JIGUANG_SANDBOX_COMMAND") ?? "npx --yes jiguang-sandbox"; }
        }

        static int Ready(string url)
        {
            try
            {
                using (var http = new HttpClient())
                using (var answer = http.GetAsync(url + "/_sandbox/ready").GetAwaiter().GetResult())
                    return (int)answer.StatusCode;
            }
            catch (HttpRequestException)
            {
                return -1;
            }
        }

        static Func<string, string> Settings(string name, string value)
        {
            var settings = new Dictionary<string, string> { { name, value } };
            return key => settings.ContainsKey(key) ? settings[key] : null;
        }

        [Test]
        public void ACommandIsStartedOnAFreePortAndStopped()
        {
            string url;
            using (var server = SandboxServer.Start(Settings("JIGUANG_SANDBOX_COMMAND", Command)))
            {
                url = server.Url;
                Assert.That(Regex.IsMatch(url, "^http://127\\.0\\.0\\.1:\\d+$"), Is.True, url);
                Assert.That(Ready(url), Is.EqualTo(200));
            }
            Assert.That(Ready(url), Is.EqualTo(-1), "stopped with the run");
        }

        [Test]
        public void AGivenUrlIsUsedAndLeftRunning()
        {
            var own = SandboxServer.Shared;
            using (var given = SandboxServer.Start(Settings("JIGUANG_SANDBOX_URL", own.Url + "/")))
            {
                Assert.That(given.Url, Is.EqualTo(own.Url));
                Assert.That(given.Origin, Is.EqualTo("JIGUANG_SANDBOX_URL"));
            }
            Assert.That(Ready(own.Url), Is.EqualTo(200), "what it did not start, it does not stop");
        }

        [Test]
        public void ACommandThatExitsSaysSo()
        {
            var err = Assert.Throws<InvalidOperationException>(() =>
                SandboxServer.Start(Settings("JIGUANG_SANDBOX_COMMAND", "node -e console.log('no-sandbox-here');process.exit(3) --")));
            Assert.That(err.Message.Contains("exited with status 3 before it listened"), Is.True, err.Message);
            Assert.That(err.Message.Contains("no-sandbox-here"), Is.True, err.Message);
        }

        [Test]
        public void ACommandThatIsNotThereSaysWhatToSet()
        {
            var err = Assert.Throws<InvalidOperationException>(() =>
                SandboxServer.Start(Settings("JIGUANG_SANDBOX_COMMAND", "/nonexistent/jiguang-sandbox")));
            Assert.That(err.Message.Contains("JIGUANG_SANDBOX_URL"), Is.True, err.Message);
        }
    }
}
