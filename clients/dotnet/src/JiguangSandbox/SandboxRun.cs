using NUnit.Framework;

namespace JiguangSandbox
{
    /// <summary>
    /// Stops the run's sandbox when the tests end. Derive a <c>[SetUpFixture]</c> from it, outside any
    /// namespace so that it spans the whole test assembly:
    /// <code>
    /// [SetUpFixture]
    /// public class Sandbox : JiguangSandbox.SandboxRun { }
    /// </code>
    /// Without it the sandbox is started on first use all the same, and stopped when the test
    /// process (or its AppDomain) ends.
    /// </summary>
    public abstract class SandboxRun
    {
#if NUNIT2
        [TearDown]
#else
        [OneTimeTearDown]
#endif
        public void StopSandbox()
        {
            SandboxServer.StopShared();
        }
    }
}
