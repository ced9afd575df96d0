using System;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace JiguangSandbox.Tests
{
    /// <summary>
    /// Stands for the application under test: it calls JSMS and JPush at the base URLs and with the
    /// credentials a test hands it, as any HTTP client would.
    /// </summary>
    sealed class AppUnderTest
    {
        static readonly HttpClient Http = new HttpClient();
        readonly SandboxClient sb;

        internal AppUnderTest(SandboxClient sb) { this.sb = sb; }

        internal sealed class Answer
        {
            internal int Status;
            internal JsonObject Body;

            /// <summary>The vendor's error code, or 0 for a success.</summary>
            internal int ErrorCode { get { var error = Body.GetObject("error"); return error == null ? 0 : error.GetInt("code"); } }
        }

        internal Task<Answer> SendCodeAsync(string mobile)
        {
            return PostAsync(sb.SmsBaseUrl + "/v1/codes", new { mobile, temp_id = 1 });
        }

        internal Task<Answer> VerifyAsync(string msgId, string code)
        {
            return PostAsync(sb.SmsBaseUrl + "/v1/codes/" + msgId + "/valid", new { code });
        }

        internal Task<Answer> SendAsync(string mobile, int tempId, object tempPara)
        {
            return PostAsync(sb.SmsBaseUrl + "/v1/messages", new { mobile, temp_id = tempId, temp_para = tempPara });
        }

        /// <summary>A notification with template 2 (order, days), or another template with the same parameters.</summary>
        internal Task<Answer> SendNoticeAsync(string mobile, int tempId, string order)
        {
            return SendAsync(mobile, tempId, new { order, days = "2" });
        }

        internal Task<Answer> PushAsync(object payload)
        {
            return PostAsync(sb.PushBaseUrl + "/v3/push", payload);
        }

        async Task<Answer> PostAsync(string url, object body)
        {
            using (var request = new HttpRequestMessage(HttpMethod.Post, url))
            {
                request.Headers.TryAddWithoutValidation("Authorization", sb.Authorization);
                request.Content = new StringContent(Json.Write(body), Encoding.UTF8, "application/json");
                using (var answer = await Http.SendAsync(request))
                    return new Answer { Status = (int)answer.StatusCode, Body = Json.ParseObject(await answer.Content.ReadAsStringAsync()) };
            }
        }
    }

    static class Expect
    {
        /// <summary>The exception <paramref name="action"/> throws (NUnit 2.6 has no Assert.ThrowsAsync).</summary>
        internal static async Task<T> Throws<T>(Func<Task> action) where T : Exception
        {
            try
            {
                await action();
            }
            catch (T err)
            {
                return err;
            }
            Assert.Fail("expected a " + typeof(T).Name);
            return null;
        }
    }
}
