using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace JiguangSandbox
{
    /// <summary>
    /// The control plane (<c>/_sandbox</c>) of one app of the sandbox, on <see cref="HttpClient"/>: what
    /// the real service hides (the texted code, the push a device got, why a call was refused) and what
    /// it decides (the clock, faults, the reviewer, the handsets). Every call only sees and changes this
    /// app. Refusals are thrown as <see cref="SandboxException"/>; a <c>Next…Async</c> call that sees
    /// nothing arrive in time throws <see cref="NothingArrivedException"/>. Filters and bodies are
    /// dictionaries or anonymous objects with the wire's names: <c>new { mobile = "13800138000" }</c>.
    /// Routes, filters and answers: docs/control-plane.md.
    /// </summary>
    public sealed class SandboxClient
    {
        /// <summary>How long a <c>Next…Async</c> call waits when not told.</summary>
        public static readonly TimeSpan DefaultWait = TimeSpan.FromSeconds(5);

        /// <summary>The longest the sandbox holds one request (<c>wait=</c>); longer waits are several requests.</summary>
        const long MaxWaitMs = 30000;

        static readonly HttpClient Http = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };

        readonly Dictionary<string, long> cursors = new Dictionary<string, long>();
        long origin;

        public SandboxClient(string baseUrl, string appKey, string masterSecret)
        {
            BaseUrl = baseUrl.TrimEnd('/');
            AppKey = appKey;
            MasterSecret = masterSecret;
            Authorization = "Basic " + Convert.ToBase64String(Encoding.UTF8.GetBytes(appKey + ":" + masterSecret));
        }

        /// <summary>
        /// A client of an app of its own: a fresh random appKey and masterSecret (24 lowercase hex
        /// each), provisioned by its first request (any well-formed new appKey is a new, isolated app
        /// with the default fixtures).
        /// </summary>
        public static async Task<SandboxClient> CreateAppAsync(string baseUrl)
        {
            var client = new SandboxClient(baseUrl, RandomKey(), RandomKey());
            try
            {
                await client.AppAsync().ConfigureAwait(false);
            }
            catch (SandboxException err)
            {
                if (err.Status == 401)
                    throw new SandboxException(err.Status, err.Code, err.Message + " (is AUTO_PROVISION off, or a cap reached?)", err.Body);
                throw;
            }
            return client;
        }

        /// <summary>24 lowercase hex digits: a well-formed appKey or masterSecret no app has yet.</summary>
        public static string RandomKey()
        {
            var bytes = new byte[12];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(bytes);
            return string.Concat(bytes.Select(b => b.ToString("x2", CultureInfo.InvariantCulture)));
        }

        public string BaseUrl { get; private set; }
        public string AppKey { get; private set; }
        public string MasterSecret { get; private set; }

        /// <summary><c>Basic …</c> of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox.</summary>
        public string Authorization { get; private set; }

        /// <summary>Where an SDK's JSMS host (api.sms.jpush.cn) goes: it serves <c>/v1</c>.</summary>
        public string SmsBaseUrl { get { return BaseUrl; } }

        /// <summary>Where an SDK's JPush push host (api.jpush.cn) goes: <c>/v3/push</c>, schedules…</summary>
        public string PushBaseUrl { get { return BaseUrl; } }

        /// <summary>Where an SDK's device host (device.jpush.cn) goes: <c>/v3/devices</c>, tags, aliases.</summary>
        public string DeviceBaseUrl { get { return BaseUrl; } }

        /// <summary>Where an SDK's report host (report.jpush.cn) goes: <c>/v3/received</c>…</summary>
        public string ReportBaseUrl { get { return BaseUrl; } }

        /// <summary>The web UI opened on this app (docs/web-ui.md, links).</summary>
        public string UiLink { get { return BaseUrl + "/_sandbox/ui/?app=" + AppKey; } }

        // --- the app ------------------------------------------------------------------------

        /// <summary>The app's settings, balances, developer and clock.</summary>
        public Task<JsonObject> AppAsync() { return CallAsync("GET", "/_sandbox/app"); }

        /// <summary>Changes any of the app's settings at once (<c>PATCH /_sandbox/app</c>); answers the new state.</summary>
        public Task<JsonObject> PatchAppAsync(object patch) { return CallAsync("PATCH", "/_sandbox/app", body: patch); }

        /// <summary>Back to its first use: all it did is gone, its fixtures and settings back, its clock real.</summary>
        public Task<JsonObject> ResetAsync() { return CallAsync("POST", "/_sandbox/reset"); }

        /// <summary>Removes the app; the next request with these credentials provisions it afresh.</summary>
        public Task<JsonObject> DeleteAppAsync() { return CallAsync("DELETE", "/_sandbox/app"); }

        /// <summary>Everything the app holds, as one JSON document (keep it as a CI artifact, import it elsewhere).</summary>
        public Task<string> ExportAppAsync() { return SendAsync("GET", "/_sandbox/app/export", null, null, 0); }

        /// <summary>Makes the app hold exactly what <paramref name="document"/> (an export) says, its own credentials kept.</summary>
        public async Task<JsonObject> ImportAppAsync(string document)
        {
            return Json.ParseObject(await SendAsync("POST", "/_sandbox/app/import", null, new RawJson(document), 0).ConfigureAwait(false));
        }

        /// <summary>The sandbox's version, settings and database (<c>GET /_sandbox/info</c>, public).</summary>
        public Task<JsonObject> InfoAsync() { return CallAsync("GET", "/_sandbox/info"); }

        // --- the clock ----------------------------------------------------------------------

        public Task<JsonObject> ClockAsync() { return CallAsync("GET", "/_sandbox/clock"); }

        /// <summary>Moves the app's clock forward; answers once all that fell due on the way has run.</summary>
        public Task<JsonObject> AdvanceClockAsync(TimeSpan by)
        {
            return CallAsync("POST", "/_sandbox/clock", body: new { advance_ms = (long)by.TotalMilliseconds });
        }

        /// <summary>Moves the app's clock forward to <paramref name="time"/> (never back: 409 90053).</summary>
        public Task<JsonObject> SetClockAsync(DateTimeOffset time)
        {
            return CallAsync("POST", "/_sandbox/clock", body: new { set = time.ToUniversalTime().ToString("o", CultureInfo.InvariantCulture) });
        }

        // --- texts --------------------------------------------------------------------------

        /// <summary>The SMS that went out, newest first; filters: mobile, msg_id, kind, after, since, until, limit, wait.</summary>
        public Task<Page> MessagesAsync(object filter = null) { return ListAsync(Lists.Messages, Fields(filter)); }

        /// <summary>The latest code texted to <paramref name="mobile"/>, waiting up to <paramref name="wait"/> for one (404 90044 when none).</summary>
        public Task<JsonObject> LatestCodeAsync(string mobile, TimeSpan? wait = null)
        {
            var query = new Dictionary<string, object> { { "mobile", mobile } };
            long waitMs = 0;
            if (wait.HasValue)
            {
                waitMs = Math.Min(MaxWaitMs, (long)wait.Value.TotalMilliseconds);
                query["wait"] = waitMs;
            }
            return CallAsync("GET", "/_sandbox/sms/codes/latest", query, null, waitMs);
        }

        /// <summary>
        /// The next SMS matching <paramref name="filter"/>, waiting up to <paramref name="wait"/> (5 s by
        /// default): the first after the last one this client's call returned for the same filter (or
        /// after the filter's <c>after</c>, or after <see cref="MarkAsync"/>).
        /// </summary>
        public Task<JsonObject> NextMessageAsync(object filter = null, TimeSpan? wait = null) { return NextAsync(Lists.Messages, Fields(filter), wait); }

        /// <summary>The delivery reports that arrived, newest first.</summary>
        public Task<Page> ReportsAsync(object filter = null) { return ListAsync(Lists.Reports, Fields(filter)); }

        /// <summary>The uplink replies the app got, newest first.</summary>
        public Task<Page> RepliesAsync(object filter = null) { return ListAsync(Lists.Replies, Fields(filter)); }

        // --- pushes and devices -------------------------------------------------------------

        /// <summary>The pushes devices received, newest first; filters: registration_id, alias, msg_id, after, since…</summary>
        public Task<Page> PushesAsync(object filter = null) { return ListAsync(Lists.Pushes, Fields(filter)); }

        /// <summary>The next push a device received matching <paramref name="filter"/>, waiting for it.</summary>
        public Task<JsonObject> NextPushAsync(object filter = null, TimeSpan? wait = null) { return NextAsync(Lists.Pushes, Fields(filter), wait); }

        /// <summary>The app's devices.</summary>
        public async Task<IList<JsonObject>> DevicesAsync()
        {
            return (await CallAsync("GET", "/_sandbox/push/devices").ConfigureAwait(false)).GetObjects("devices");
        }

        /// <summary>
        /// Registers a device as a phone app registering with JPush would: <c>platform</c> (android, ios…),
        /// and optionally <c>registration_id</c>, <c>alias</c>, <c>tags</c>, <c>mobile</c>, <c>online</c>.
        /// </summary>
        public Task<JsonObject> RegisterDeviceAsync(object device) { return CallAsync("POST", "/_sandbox/push/devices", body: device); }

        /// <summary>Brings a device online (what waits for it within its time_to_live is delivered now) or offline.</summary>
        public Task<JsonObject> SetOnlineAsync(string registrationId, bool online)
        {
            return CallAsync("PATCH", "/_sandbox/push/devices/" + Uri.EscapeDataString(registrationId), body: new { online });
        }

        /// <summary>The device opens a push it received (counted by the reports that count clicks).</summary>
        public Task<JsonObject> ClickAsync(string msgId, string registrationId)
        {
            return CallAsync("POST", "/_sandbox/push/messages/" + Uri.EscapeDataString(msgId) + "/clicks", body: new { registration_id = registrationId });
        }

        // --- the journal and callbacks ------------------------------------------------------

        /// <summary>
        /// The request journal, newest first: each /v1 and /v3 call and each /_sandbox write, what it was
        /// answered and, when refused, why (<c>reason</c>). Filters: method, path (a prefix), status, code, msg_id…
        /// </summary>
        public Task<Page> RequestsAsync(object filter = null) { return ListAsync(Lists.Requests, Fields(filter)); }

        /// <summary>The next request of the journal matching <paramref name="filter"/> (<c>new { status = 403 }</c>), waiting for it.</summary>
        public Task<JsonObject> NextRequestAsync(object filter = null, TimeSpan? wait = null) { return NextAsync(Lists.Requests, Fields(filter), wait); }

        /// <summary>The callbacks to the app's URL with their attempts, latest change first.</summary>
        public Task<Page> CallbacksAsync(object filter = null) { return ListAsync(Lists.Callbacks, Fields(filter)); }

        /// <summary>The next callback matching <paramref name="filter"/> to change, waiting for it.</summary>
        public Task<JsonObject> NextCallbackAsync(object filter = null, TimeSpan? wait = null) { return NextAsync(Lists.Callbacks, Fields(filter), wait); }

        /// <summary>
        /// The app's latest seq, which it returns; from then on <c>Next…Async</c> calls return only what
        /// comes after it. (Until the first mark they start from the app's first item.)
        /// </summary>
        public async Task<long> MarkAsync()
        {
            // A list's answer with no item says the app's latest seq: nothing is older than epoch 0.
            var seq = (await ListAsync(Lists.Replies, new Dictionary<string, object> { { "until", 0 }, { "limit", 1 } }).ConfigureAwait(false)).NextAfter;
            lock (cursors)
            {
                cursors.Clear();
                origin = seq;
            }
            return seq;
        }

        // --- steering -----------------------------------------------------------------------

        /// <summary>
        /// Arms a fault on /v1 or /v3 (<c>new { path = "/v1/codes", code = 50019 }</c>; also method,
        /// status, message, delay_ms, times, match); answers it as armed (its id, remaining).
        /// </summary>
        public Task<JsonObject> ArmFaultAsync(object fault) { return CallAsync("POST", "/_sandbox/faults", body: fault); }

        public async Task<IList<JsonObject>> FaultsAsync()
        {
            return (await CallAsync("GET", "/_sandbox/faults").ConfigureAwait(false)).GetObjects("faults");
        }

        /// <summary>Disarms every fault of the app; answers how many there were.</summary>
        public async Task<int> ClearFaultsAsync()
        {
            return (await CallAsync("DELETE", "/_sandbox/faults").ConfigureAwait(false)).GetInt("cleared");
        }

        /// <summary>A handset replies to the app (pulled by GET /v1/reply, or called back).</summary>
        public Task<JsonObject> ReplyAsync(string mobile, string content)
        {
            return CallAsync("POST", "/_sandbox/sms/replies", body: new { mobile, content });
        }

        /// <summary>The message's delivery report gets this status (4001–4100) when it falls due.</summary>
        public Task<JsonObject> SetReportAsync(string msgId, int status)
        {
            return CallAsync("POST", "/_sandbox/sms/reports", body: new { msg_id = msgId, status });
        }

        /// <summary>The reviewer approves a template (status 1).</summary>
        public Task<JsonObject> ApproveTemplateAsync(long tempId) { return ReviewAsync("templates", tempId, 1, null); }

        /// <summary>The reviewer rejects a template (status 2) with its words.</summary>
        public Task<JsonObject> RejectTemplateAsync(long tempId, string refuseReason) { return ReviewAsync("templates", tempId, 2, refuseReason); }

        public Task<JsonObject> ApproveSignAsync(long signId) { return ReviewAsync("signs", signId, 1, null); }

        public Task<JsonObject> RejectSignAsync(long signId, string refuseReason) { return ReviewAsync("signs", signId, 2, refuseReason); }

        Task<JsonObject> ReviewAsync(string kind, long id, int status, string refuseReason)
        {
            var body = new Dictionary<string, object> { { "status", status } };
            if (refuseReason != null) body["refuse_reason"] = refuseReason;
            return CallAsync("POST", "/_sandbox/sms/" + kind + "/" + id.ToString(CultureInfo.InvariantCulture) + "/review", body: body);
        }

        // --- lists and waiting --------------------------------------------------------------

        sealed class Lists
        {
            internal static readonly Lists Messages = new Lists("/_sandbox/sms/messages", "messages");
            internal static readonly Lists Pushes = new Lists("/_sandbox/push/messages", "messages");
            internal static readonly Lists Reports = new Lists("/_sandbox/sms/reports", "reports");
            internal static readonly Lists Replies = new Lists("/_sandbox/sms/replies", "replies");
            internal static readonly Lists Callbacks = new Lists("/_sandbox/callbacks", "callbacks");
            internal static readonly Lists Requests = new Lists("/_sandbox/requests", "requests");

            internal readonly string Path;
            internal readonly string Key;

            Lists(string path, string key)
            {
                Path = path;
                Key = key;
            }
        }

        async Task<Page> ListAsync(Lists list, IDictionary<string, object> filter)
        {
            object wait;
            long waitMs = filter.TryGetValue("wait", out wait) && wait != null ? Convert.ToInt64(wait, CultureInfo.InvariantCulture) : 0;
            return new Page(await CallAsync("GET", list.Path, filter, null, waitMs).ConfigureAwait(false), list.Key);
        }

        async Task<JsonObject> NextAsync(Lists list, IDictionary<string, object> filter, TimeSpan? wait)
        {
            var span = wait ?? DefaultWait;
            var own = new Dictionary<string, object>(filter);
            object given;
            own.TryGetValue("after", out given);
            own.Remove("after");
            own.Remove("limit");
            own.Remove("wait");
            var key = list.Path + "?" + Json.Write(new SortedDictionary<string, object>(own, StringComparer.Ordinal));
            long after;
            lock (cursors)
            {
                if (given != null) after = Convert.ToInt64(given, CultureInfo.InvariantCulture);
                else if (!cursors.TryGetValue(key, out after)) after = origin;
            }
            var deadline = DateTime.UtcNow + span;
            while (true)
            {
                var left = Math.Max(0, (long)(deadline - DateTime.UtcNow).TotalMilliseconds);
                var query = new Dictionary<string, object>(own);
                query["after"] = after;
                query["limit"] = 1;
                query["wait"] = Math.Min(MaxWaitMs, left);
                var items = (await ListAsync(list, query).ConfigureAwait(false)).Items;
                if (items.Count > 0)
                {
                    var item = items[0];
                    lock (cursors) cursors[key] = item.GetLong("seq");
                    return item;
                }
                // A held request also ends early when the app is reset: then it is asked again.
                if (DateTime.UtcNow >= deadline)
                {
                    var arrived = (await ListAsync(list, new Dictionary<string, object> { { "after", after }, { "limit", 20 } }).ConfigureAwait(false)).Items;
                    throw new NothingArrivedException(list.Path, own, after, span, arrived);
                }
            }
        }

        // --- HTTP ---------------------------------------------------------------------------

        /// <summary>A body sent as it is (an exported document), not written from an object.</summary>
        sealed class RawJson
        {
            internal readonly string Text;
            internal RawJson(string text) { Text = text; }
        }

        async Task<JsonObject> CallAsync(string method, string path, IDictionary<string, object> query = null, object body = null, long waitMs = 0)
        {
            var text = await SendAsync(method, path, query, body, waitMs).ConfigureAwait(false);
            try
            {
                return Json.ParseObject(text);
            }
            catch (FormatException)
            {
                throw new SandboxException(200, null, method + " " + path + ": the answer is not JSON: " + Json.Abbreviate(text, 200), text);
            }
        }

        async Task<string> SendAsync(string method, string path, IDictionary<string, object> query, object body, long waitMs)
        {
            using (var request = new HttpRequestMessage(new HttpMethod(method), BaseUrl + path + QueryString(query)))
            // a held request (wait=) answers within its wait; anything else within the sandbox's own 30 s
            using (var timeout = new CancellationTokenSource(TimeSpan.FromMilliseconds(waitMs + 30000)))
            {
                request.Headers.TryAddWithoutValidation("Authorization", Authorization);
                request.Headers.Accept.Add(new MediaTypeWithQualityHeaderValue("application/json"));
                if (body != null)
                {
                    var raw = body as RawJson;
                    request.Content = new StringContent(raw != null ? raw.Text : Json.Write(body), Encoding.UTF8, "application/json");
                }
                HttpResponseMessage answer;
                try
                {
                    answer = await Http.SendAsync(request, timeout.Token).ConfigureAwait(false);
                }
                catch (HttpRequestException err)
                {
                    throw new SandboxException(method + " " + path + ": no answer from " + BaseUrl + ": " + err.Message, err);
                }
                catch (OperationCanceledException err)
                {
                    throw new SandboxException(method + " " + path + ": no answer from " + BaseUrl + " within " + (waitMs + 30000) + " ms", err);
                }
                using (answer)
                {
                    var text = await answer.Content.ReadAsStringAsync().ConfigureAwait(false);
                    var status = (int)answer.StatusCode;
                    if (status >= 200 && status < 300) return text;
                    throw SandboxException.FromAnswer(method, path, status, text);
                }
            }
        }

        internal static string QueryString(IDictionary<string, object> query)
        {
            if (query == null || query.Count == 0) return "";
            var text = new StringBuilder();
            foreach (var entry in query)
            {
                if (entry.Value == null) continue;
                text.Append(text.Length == 0 ? '?' : '&')
                    .Append(Uri.EscapeDataString(entry.Key))
                    .Append('=')
                    .Append(Uri.EscapeDataString(QueryValue(entry.Value)));
            }
            return text.ToString();
        }

        static string QueryValue(object value)
        {
            if (value is bool) return (bool)value ? "true" : "false";
            if (value is DateTimeOffset) return ((DateTimeOffset)value).ToUniversalTime().ToString("o", CultureInfo.InvariantCulture);
            if (value is DateTime) return ((DateTime)value).ToUniversalTime().ToString("o", CultureInfo.InvariantCulture);
            return Convert.ToString(value, CultureInfo.InvariantCulture);
        }

        /// <summary>A filter as name → value: a dictionary as it is, any other object by its public properties.</summary>
        internal static IDictionary<string, object> Fields(object filter)
        {
            var fields = new Dictionary<string, object>();
            if (filter == null) return fields;
            var dictionary = filter as IDictionary;
            if (dictionary != null)
            {
                foreach (DictionaryEntry entry in dictionary) fields[Convert.ToString(entry.Key, CultureInfo.InvariantCulture)] = entry.Value;
                return fields;
            }
            foreach (var property in filter.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
                if (property.GetIndexParameters().Length == 0) fields[property.Name] = property.GetValue(filter, null);
            return fields;
        }

        public override string ToString() { return "SandboxClient[" + AppKey + " at " + BaseUrl + "]"; }
    }
}
