// docs/sdk-setup.md's C# snippet (Snippet.cs beside this file, as the page shows it), run against
// the sandbox at SANDBOX with its own app. What the SDK returns is checked here; what the sandbox
// received, by the test that runs this one.
using System;
using System.IO;
using System.Net;
using System.Text.RegularExpressions;
using NUnit.Framework;

[TestFixture]
public class SdkSetupTest
{
    [Test]
    public void JPushApiCsharpClient()
    {
        var response = JPushThroughTheSandbox.Push(
            Environment.GetEnvironmentVariable("SANDBOX"),
            Environment.GetEnvironmentVariable("JIGUANG_APP_KEY"),
            Environment.GetEnvironmentVariable("JIGUANG_MASTER_SECRET"));
        Assert.AreEqual(HttpStatusCode.OK, response.StatusCode, response.Content);
        var msgId = Regex.Match(response.Content, "\"msg_id\":\"(\\d+)\"").Groups[1].Value;
        Assert.IsNotEmpty(msgId, response.Content);
        File.WriteAllText(Environment.GetEnvironmentVariable("SDK_SETUP_RESULT"), "{\"msg_id\":\"" + msgId + "\"}");
    }
}
