// Stands in for Jiguang.JPush 1.2.5 (jpush/jpush-api-csharp-client: Jiguang.JPush/JPushClient.cs,
// ReportClient.cs, ScheduleClient.cs, Model/PushPayload.cs, Model/Options.cs, Model/HttpResponse.cs):
// one static HttpClient that accepts application/json and carries the app's Basic credentials; each
// client's BASE_URL is the vendor's until SetBaseURL; SendPush posts the payload as Json.NET writes
// it (platform, audience, notification, options with apns_production) in a StringContent of UTF-8,
// whose type is text/plain; charset=utf-8; every answer comes back as HttpResponse, never thrown.
using System;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Text;
using System.Threading.Tasks;
using Jiguang.JPush.Model;

namespace Jiguang.JPush.Model
{
    public class Notification
    {
        public string Alert { get; set; }
    }

    public class PushPayload
    {
        public object Platform { get; set; } = "all";
        public object Audience { get; set; } = "all";
        public Notification Notification { get; set; }

        static string Quote(string s)
        {
            var b = new StringBuilder("\"");
            foreach (var c in s)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < 0x20) b.AppendFormat("\\u{0:x4}", (int)c);
                else b.Append(c);
            }
            return b.Append('"').ToString();
        }

        public override string ToString()
        {
            var json = "{\"platform\":" + Quote((string)Platform) + ",\"audience\":" + Quote((string)Audience);
            if (Notification != null) json += ",\"notification\":{\"alert\":" + Quote(Notification.Alert) + "}";
            return json + ",\"options\":{\"apns_production\":false}}";
        }
    }

    public class HttpResponse
    {
        public HttpStatusCode StatusCode { get; set; }
        public HttpResponseHeaders Headers { get; set; }
        public string Content { get; set; }

        public HttpResponse(HttpStatusCode statusCode, HttpResponseHeaders headers, string content)
        {
            StatusCode = statusCode;
            Headers = headers;
            Content = content;
        }
    }
}

namespace Jiguang.JPush
{
    public class ReportClient
    {
        private string BASE_URL = "https://report.jpush.cn/v3";

        public void SetBaseURL(string url)
        {
            BASE_URL = url;
        }
    }

    public class ScheduleClient
    {
        private string BASE_URL = "https://api.jpush.cn/v3/schedules";

        public void SetBaseURL(string url)
        {
            BASE_URL = url;
        }
    }

    public class JPushClient
    {
        private string BASE_URL = "https://api.jpush.cn/v3/push";

        public ReportClient Report { get; set; }
        public ScheduleClient Schedule;

        public static HttpClient HttpClient;

        static JPushClient()
        {
            HttpClient = new HttpClient();
            HttpClient.DefaultRequestHeaders.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
        }

        public JPushClient(string appKey, string masterSecret)
        {
            var auth = Convert.ToBase64String(Encoding.UTF8.GetBytes(appKey + ":" + masterSecret));
            HttpClient.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", auth);
            Report = new ReportClient();
            Schedule = new ScheduleClient();
        }

        public void SetBaseURL(string url)
        {
            BASE_URL = url;
        }

        public async Task<HttpResponse> SendPushAsync(PushPayload payload)
        {
            HttpContent httpContent = new StringContent(payload.ToString(), Encoding.UTF8);
            HttpResponseMessage msg = await HttpClient.PostAsync(BASE_URL, httpContent).ConfigureAwait(false);
            var content = await msg.Content.ReadAsStringAsync().ConfigureAwait(false);
            return new HttpResponse(msg.StatusCode, msg.Headers, content);
        }

        public HttpResponse SendPush(PushPayload pushPayload)
        {
            Task<HttpResponse> task = Task.Run(() => SendPushAsync(pushPayload));
            task.Wait();
            return task.Result;
        }
    }
}
