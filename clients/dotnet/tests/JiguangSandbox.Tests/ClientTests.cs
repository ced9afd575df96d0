using System;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>Every call of the client against the run's sandbox, each test on an app of its own.</summary>
    [TestFixture]
    public class ClientTests : SandboxTest
    {
        const string Mobile = "13800138000";
        const string Other = "13900139000";

        AppUnderTest app;

        [SetUp]
        public void PointTheAppAtTheSandbox()
        {
            app = new AppUnderTest(Sandbox);
        }

        [Test]
        public async Task ANewAppOfItsOwnWithTheBaseUrls()
        {
            Assert.That(Regex.IsMatch(Sandbox.AppKey, "^[0-9a-f]{24}$"), Is.True, Sandbox.AppKey);
            Assert.That(Regex.IsMatch(Sandbox.MasterSecret, "^[0-9a-f]{24}$"), Is.True, Sandbox.MasterSecret);
            foreach (var baseUrl in new[] { Sandbox.BaseUrl, Sandbox.SmsBaseUrl, Sandbox.PushBaseUrl, Sandbox.DeviceBaseUrl, Sandbox.ReportBaseUrl })
                Assert.That(baseUrl, Is.EqualTo(SandboxServer.Url));
            Assert.That((await Sandbox.AppAsync()).GetString("app_key"), Is.EqualTo(Sandbox.AppKey));
            Assert.That((await Sandbox.MessagesAsync()).Count, Is.EqualTo(0), "a new app has sent nothing");
            Assert.That(Sandbox.UiLink, Is.EqualTo(SandboxServer.Url + "/_sandbox/ui/?app=" + Sandbox.AppKey));
            Assert.That((await Sandbox.InfoAsync()).GetString("version"), Is.EqualTo(Version.Client), "the client's version is the server's");
        }

        [Test]
        public async Task TheLatestCodeVerifiesOnce()
        {
            var sent = await app.SendCodeAsync(Mobile);
            var code = await Sandbox.LatestCodeAsync(Mobile, TimeSpan.FromSeconds(5));
            Assert.That(code.GetString("msg_id"), Is.EqualTo(sent.Body.GetString("msg_id")));
            Assert.That(Regex.IsMatch(code.GetString("code"), "^\\d{6}$"), Is.True);
            Assert.That((await app.VerifyAsync(code.GetString("msg_id"), code.GetString("code"))).Body.GetBool("is_valid"), Is.True);
            Assert.That((await app.VerifyAsync(code.GetString("msg_id"), code.GetString("code"))).ErrorCode, Is.EqualTo(50012)); // verified code
        }

        [Test]
        public async Task NoCodeYetIs90044()
        {
            var err = await Expect.Throws<SandboxException>(() => Sandbox.LatestCodeAsync(Mobile));
            Assert.That(err.Status, Is.EqualTo(404));
            Assert.That(err.Code, Is.EqualTo(90044));
        }

        [Test]
        public async Task TheTextsListWithItsFilters()
        {
            await app.SendCodeAsync(Mobile);
            await app.SendNoticeAsync(Other, 2, "A1");
            Assert.That((await Sandbox.MessagesAsync()).Count, Is.EqualTo(2));
            var toOther = await Sandbox.MessagesAsync(new { mobile = Other });
            Assert.That(toOther.Count, Is.EqualTo(1));
            Assert.That(toOther.Items[0].GetString("content").Contains("A1"), Is.True);
            Assert.That((await Sandbox.MessagesAsync(new { kind = "code" })).Items[0].GetString("kind"), Is.EqualTo("code"));
            var newest = (await Sandbox.MessagesAsync()).NextAfter;
            Assert.That((await Sandbox.MessagesAsync(new { after = newest })).Count, Is.EqualTo(0));
            Assert.That((await Sandbox.MessagesAsync(new { limit = 1 })).Count, Is.EqualTo(1));
        }

        [Test]
        public async Task TheNextTextAfterTheLastOne()
        {
            await app.SendNoticeAsync(Mobile, 2, "N1");
            Assert.That((await Sandbox.NextMessageAsync(new { mobile = Mobile })).GetString("content").Contains("N1"), Is.True);
            await app.SendNoticeAsync(Mobile, 2, "N2");
            Assert.That((await Sandbox.NextMessageAsync(new { mobile = Mobile })).GetString("content").Contains("N2"), Is.True);
        }

        [Test]
        public async Task WaitingInVainFailsWithWhatDidArrive()
        {
            await app.SendNoticeAsync(Other, 2, "ELSEWHERE");
            var err = await Expect.Throws<NothingArrivedException>(() => Sandbox.NextMessageAsync(new { mobile = Mobile }, TimeSpan.FromMilliseconds(300)));
            Assert.That(err.Message.Contains("\"mobile\":\"" + Mobile + "\""), Is.True, err.Message);
            Assert.That(err.Message.Contains("ELSEWHERE"), Is.True, err.Message);
            Assert.That(err.Arrived[0].GetString("mobile"), Is.EqualTo(Other));
        }

        [Test]
        public async Task TheJournalSaysWhy()
        {
            Assert.That((await app.SendNoticeAsync(Mobile, 99, "J1")).ErrorCode, Is.EqualTo(50013)); // invalid temp_id
            var refused = await Sandbox.NextRequestAsync(new { status = 403 });
            Assert.That(refused.GetString("path"), Is.EqualTo("/v1/messages"));
            Assert.That(refused.GetInt("code"), Is.EqualTo(50013));
            Assert.That(refused.GetString("reason").Contains("template 99"), Is.True, refused.GetString("reason"));
            Assert.That((await Sandbox.RequestsAsync(new { code = 50013 })).Count, Is.EqualTo(1));
        }

        [Test]
        public async Task TheClockExpiresACode()
        {
            await app.SendCodeAsync(Mobile);
            var code = await Sandbox.LatestCodeAsync(Mobile);
            var before = (await Sandbox.ClockAsync()).GetLong("now");
            var moved = await Sandbox.AdvanceClockAsync(TimeSpan.FromMilliseconds(300001)); // template 1: valid for 300 s
            Assert.That(moved.GetLong("now"), Is.GreaterThanOrEqualTo(before + 300001));
            Assert.That((await app.VerifyAsync(code.GetString("msg_id"), code.GetString("code"))).ErrorCode, Is.EqualTo(50011)); // expired
            var back = await Expect.Throws<SandboxException>(() => Sandbox.SetClockAsync(DateTimeOffset.FromUnixTimeMilliseconds(before)));
            Assert.That(back.Code, Is.EqualTo(90053));
            Assert.That(back.Status, Is.EqualTo(409));
        }

        [Test]
        public async Task FaultsArmListAndClear()
        {
            var armed = await Sandbox.ArmFaultAsync(new { path = "/v1/codes", code = 50019 });
            Assert.That(armed.GetInt("remaining"), Is.EqualTo(1));
            await Sandbox.ArmFaultAsync(new { path = "/v3/push", code = 1030, times = 2 });
            Assert.That((await Sandbox.FaultsAsync()).Count, Is.EqualTo(2));
            var failed = await app.SendCodeAsync(Mobile);
            Assert.That(failed.Status, Is.EqualTo(500));
            Assert.That(failed.ErrorCode, Is.EqualTo(50019));
            Assert.That((await app.SendCodeAsync(Mobile)).Status, Is.EqualTo(200));
            Assert.That(await Sandbox.ClearFaultsAsync(), Is.EqualTo(1));
            Assert.That((await Sandbox.FaultsAsync()).Count, Is.EqualTo(0));
            var typo = await Expect.Throws<SandboxException>(() => Sandbox.ArmFaultAsync(new { path = "/v1/mesages", code = 50019 }));
            Assert.That(typo.Code, Is.EqualTo(90020));
            Assert.That(typo.Message.Contains("/v1/mesages"), Is.True, typo.Message);
        }

        [Test]
        public async Task AHandsetReplies()
        {
            await Sandbox.ReplyAsync(Mobile, "TD");
            Assert.That((await Sandbox.RepliesAsync(new { mobile = Mobile })).Items[0].GetString("content"), Is.EqualTo("TD"));
        }

        [Test]
        public async Task ADeviceGetsAPushAndOpensIt()
        {
            var device = await Sandbox.RegisterDeviceAsync(new { platform = "android", alias = "buyer42" });
            var rid = device.GetString("registration_id");
            Assert.That((await Sandbox.DevicesAsync()).Any(d => d.GetString("registration_id") == rid), Is.True);
            var sent = await app.PushAsync(new { platform = "all", audience = new { alias = new[] { "buyer42" } }, notification = new { alert = "shipped" } });
            Assert.That(sent.Status, Is.EqualTo(200), sent.Body.ToString());
            var got = await Sandbox.NextPushAsync(new { registration_id = rid });
            Assert.That(got.GetString("msg_id"), Is.EqualTo(sent.Body.GetString("msg_id")));
            Assert.That(got.GetString("alias"), Is.EqualTo("buyer42"));
            Assert.That((await Sandbox.PushesAsync(new { alias = "buyer42" })).Count, Is.EqualTo(1));
            Assert.That((await Sandbox.ClickAsync(got.GetString("msg_id"), rid)).GetString("registration_id"), Is.EqualTo(rid));
            await Sandbox.SetOnlineAsync(rid, false);
            Assert.That((await Sandbox.DevicesAsync()).First(d => d.GetString("registration_id") == rid).GetBool("online"), Is.False);
        }

        [Test]
        public async Task TheReviewerDecides()
        {
            var appointment = new { service = "体检", time = "9:30" };
            Assert.That((await app.SendAsync(Mobile, 4, appointment)).ErrorCode, Is.EqualTo(50020)); // template 4 is under review
            Assert.That((await Sandbox.ApproveTemplateAsync(4)).GetInt("status"), Is.EqualTo(1));
            Assert.That((await app.SendAsync(Mobile, 4, appointment)).Status, Is.EqualTo(200));
            await Sandbox.RejectTemplateAsync(2, "no order numbers");
            Assert.That((await app.SendNoticeAsync(Mobile, 2, "R3")).ErrorCode, Is.EqualTo(50021)); // template not pass
            Assert.That((await Sandbox.NextRequestAsync(new { code = 50021 })).GetString("reason").Contains("no order numbers"), Is.True);
            Assert.That((await Sandbox.RejectSignAsync(1, "not a company name")).GetInt("status"), Is.EqualTo(2));
            Assert.That((await Sandbox.ApproveSignAsync(1)).GetInt("status"), Is.EqualTo(1));
        }

        [Test]
        public async Task ResetEmptiesTheApp()
        {
            await app.SendCodeAsync(Mobile);
            await Sandbox.AdvanceClockAsync(TimeSpan.FromHours(1));
            await Sandbox.PatchAppAsync(new { balances = new { industry = 5 } });
            var reset = await Sandbox.ResetAsync();
            Assert.That(reset.GetObject("clock").GetLong("offset_ms"), Is.EqualTo(0));
            Assert.That(reset.GetObject("balances").GetLong("industry"), Is.EqualTo(10000));
            Assert.That((await Sandbox.MessagesAsync()).Count, Is.EqualTo(0));
        }

        [Test]
        public async Task ExportAndImportAnotherApp()
        {
            await app.SendNoticeAsync(Mobile, 99, "X1");
            var document = await Sandbox.ExportAppAsync();
            var parsed = Json.ParseObject(document);
            Assert.That(parsed.GetString("format"), Is.EqualTo("jiguang-sandbox/app"));
            Assert.That(parsed.GetString("app_key"), Is.EqualTo(Sandbox.AppKey));
            await Sandbox.DeleteAppAsync(); // a document's ids belong to one app of a sandbox: the first goes
            var other = await SandboxServer.CreateAppAsync();
            try
            {
                Assert.That((await other.ImportAppAsync(document)).GetBool("imported"), Is.True);
                Assert.That((await other.RequestsAsync(new { code = 50013 })).Items[0].GetInt("code"), Is.EqualTo(50013));
            }
            finally
            {
                await other.DeleteAppAsync();
            }
        }

        [Test]
        public async Task MarkStartsTheNextCallsFromNow()
        {
            await app.SendNoticeAsync(Mobile, 2, "OLD");
            Assert.That(await Sandbox.MarkAsync(), Is.GreaterThan(0));
            await app.SendNoticeAsync(Mobile, 2, "NEW");
            Assert.That((await Sandbox.NextMessageAsync(new { mobile = Mobile })).GetString("content").Contains("NEW"), Is.True);
        }

        [Test]
        public async Task AppsDoNotSeeEachOther()
        {
            var other = await SandboxServer.CreateAppAsync();
            try
            {
                Assert.That(other.AppKey, Is.Not.EqualTo(Sandbox.AppKey));
                await new AppUnderTest(other).SendCodeAsync(Mobile);
                Assert.That((await Sandbox.MessagesAsync()).Count, Is.EqualTo(0));
                Assert.That((await other.MessagesAsync()).Count, Is.EqualTo(1));
            }
            finally
            {
                await other.DeleteAppAsync();
            }
        }
    }
}
