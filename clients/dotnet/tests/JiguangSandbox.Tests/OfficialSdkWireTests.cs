using System;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>
    /// The base URLs used as the official C# SDK (jpush/jpush-api-csharp-client, Jiguang.JPush) uses
    /// them, with the bytes it sends, read from its source (the SDK itself is not on this machine: no
    /// NuGet feed):
    /// - Jiguang.JPush/JPushClient.cs: one static HttpClient whose DefaultRequestHeaders carry
    ///   <c>Accept: application/json</c> and <c>Authorization: Basic base64(appKey:masterSecret)</c>;
    ///   <c>SendPushAsync</c> POSTs <c>new StringContent(json, Encoding.UTF8)</c> (so
    ///   <c>Content-Type: text/plain; charset=utf-8</c>) to the URL <c>SetBaseURL</c> gave:
    ///   <c>client.SetBaseURL(sb.PushBaseUrl + "/v3/push")</c> points it at the sandbox;
    /// - Jiguang.JPush/Model/PushPayload.cs <c>GetJson</c>: Newtonsoft.Json, nulls and defaults left
    ///   out, platform and audience "all" by default, and <c>options</c> always written by
    ///   <c>OptionsJsonConvert</c> (Model/Options.cs) with <c>apns_production</c> false;
    /// - Jiguang.JPush/ReportClient.cs <c>GetMessageReportAsync</c>: GET <c>BASE_URL + "/received?msg_ids="</c>
    ///   + the ids joined by ",": <c>client.Report.SetBaseURL(sb.ReportBaseUrl + "/v3")</c>.
    /// (DeviceClient's host is a const, https://device.jpush.cn: only the TLS drop-in reaches it.)
    /// </summary>
    [TestFixture]
    public class OfficialSdkWireTests : SandboxTest
    {
        /// <summary>What JPushClient's static HttpClient sends.</summary>
        HttpClient JPushHttpClient()
        {
            var http = new HttpClient();
            http.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
            var auth = Convert.ToBase64String(Encoding.UTF8.GetBytes(Sandbox.AppKey + ":" + Sandbox.MasterSecret));
            http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", auth);
            return http;
        }

        [Test]
        public async Task SendPushReachesTheDevicesAndTheReportCountsThem()
        {
            using (var http = JPushHttpClient())
            {
                // new PushPayload { Notification = new Notification { Alert = "hello" } }.ToString()
                var body = "{\"platform\":\"all\",\"audience\":\"all\",\"notification\":{\"alert\":\"hello\"},\"options\":{\"apns_production\":false}}";
                var pushUrl = Sandbox.PushBaseUrl + "/v3/push"; // SetBaseURL
                using (var answer = await http.PostAsync(pushUrl, new StringContent(body, Encoding.UTF8)))
                {
                    var text = await answer.Content.ReadAsStringAsync();
                    Assert.That((int)answer.StatusCode, Is.EqualTo(200), text);
                    var msgId = Json.ParseObject(text).GetString("msg_id");
                    var got = await Sandbox.NextPushAsync(new { msg_id = msgId });
                    Assert.That(got.GetObject("notification").GetString("alert"), Is.EqualTo("hello"));
                    var devices = (await Sandbox.DevicesAsync()).Count;
                    Assert.That((await Sandbox.PushesAsync(new { msg_id = msgId })).Count, Is.EqualTo(devices));

                    // Report.SetBaseURL(sb.ReportBaseUrl + "/v3"); GetMessageReportAsync(new List<string> { msgId })
                    var report = await http.GetStringAsync(Sandbox.ReportBaseUrl + "/v3" + "/received?msg_ids=" + msgId);
                    var counted = Json.Parse(report) as System.Collections.Generic.IList<object>;
                    Assert.That(counted, Is.Not.Null, report);
                    Assert.That(((JsonObject)counted[0]).GetString("msg_id"), Is.EqualTo(msgId));
                }
                var journal = await Sandbox.NextRequestAsync(new { path = "/v3/push" });
                Assert.That(journal.GetInt("status"), Is.EqualTo(200));
            }
        }

        [Test]
        public async Task ARefusalIsTheEnvelopeTheSdkHandsBack()
        {
            using (var http = JPushHttpClient())
            {
                // a registration_id no device has: HttpResponse carries the status and the vendor's body as they came
                var body = "{\"platform\":\"all\",\"audience\":{\"registration_id\":[\"0000000000000000000\"]},\"notification\":{\"alert\":\"hello\"},\"options\":{\"apns_production\":false}}";
                using (var answer = await http.PostAsync(Sandbox.PushBaseUrl + "/v3/push", new StringContent(body, Encoding.UTF8)))
                {
                    var text = await answer.Content.ReadAsStringAsync();
                    Assert.That((int)answer.StatusCode, Is.EqualTo(400), text);
                    Assert.That(Json.ParseObject(text).GetObject("error").GetInt("code"), Is.EqualTo(1003), text);
                }
                var refused = await Sandbox.NextRequestAsync(new { status = 400 });
                Assert.That(refused.GetString("reason").Contains("0000000000000000000"), Is.True, refused.ToString());
            }
        }
    }
}
