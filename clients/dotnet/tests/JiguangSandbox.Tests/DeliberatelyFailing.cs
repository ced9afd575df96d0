using System;
using System.Threading.Tasks;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>
    /// A test that fails on purpose, in a child run only (FailureReportTests): in a normal run
    /// (JIGUANG_SANDBOX_CHILD_RUN unset) it returns at once.
    /// </summary>
    [TestFixture]
    public class DeliberatelyFailing : SandboxTest
    {
        [Test]
        public async Task ExpectsATextThatNeverCame()
        {
            if (Environment.GetEnvironmentVariable("JIGUANG_SANDBOX_CHILD_RUN") != "1") return;
            // refused: the app has no template 99 (50013), so no text goes out…
            await new AppUnderTest(Sandbox).SendNoticeAsync("13800138000", 99, "LOST");
            // …and waiting for one fails the test
            await Sandbox.NextMessageAsync(new { mobile = "13800138000" }, TimeSpan.FromMilliseconds(200));
        }
    }
}
