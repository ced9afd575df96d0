using NUnit.Framework;

/// <summary>The run's sandbox is stopped when the tests of this assembly end.</summary>
[SetUpFixture]
public class RunSandbox : JiguangSandbox.SandboxRun
{
}
