package io.github.jiguangsandbox;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The control plane ({@code /_sandbox}) of one app of the sandbox: what the real service hides (the
 * texted code, the push a device got, why a call was refused) and what it decides (the clock,
 * faults, the reviewer, the handsets), on {@code java.net.http}. Every call only sees and changes
 * this app. Refusals are thrown as {@link SandboxException}; a {@code next…()} call that sees nothing
 * arrive in time throws {@link NothingArrived}. Routes, filters and answers: docs/control-plane.md.
 *
 * <pre>{@code
 * SandboxClient sb = SandboxClient.createApp("http://127.0.0.1:8080");
 * // the application under test, pointed at sb.smsBaseUrl() with sb.appKey() / sb.masterSecret()
 * JsonObject code = sb.latestCode("13800138000", Duration.ofSeconds(5));
 * }</pre>
 */
public final class SandboxClient {
    /** How long a {@code next…()} call waits when not told. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);
    /** The longest the sandbox holds one request ({@code wait=}); longer waits are several requests. */
    static final long MAX_WAIT_MS = 30_000;

    private static final HttpClient HTTP = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(10))
        .version(HttpClient.Version.HTTP_1_1)
        .build();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String baseUrl;
    private final String appKey;
    private final String masterSecret;
    private final String authorization;
    /** Per list and filter, the seq of the last item a next…() call returned. */
    private final Map<String, Long> cursors = new HashMap<>();
    private long origin;

    public SandboxClient(String baseUrl, String appKey, String masterSecret) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.appKey = appKey;
        this.masterSecret = masterSecret;
        this.authorization = "Basic " + Base64.getEncoder()
            .encodeToString((appKey + ":" + masterSecret).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A client of an app of its own: a fresh random appKey and masterSecret (24 lowercase hex each),
     * provisioned by its first request (any well-formed new appKey is a new, isolated app with the
     * default fixtures).
     */
    public static SandboxClient createApp(String baseUrl) {
        SandboxClient client = new SandboxClient(baseUrl, randomKey(), randomKey());
        try {
            client.app();
        } catch (SandboxException err) {
            if (err.status() == 401)
                throw new SandboxException(err.status(), err.code(),
                    err.getMessage() + " (is AUTO_PROVISION off, or a cap reached?)", err.body());
            throw err;
        }
        return client;
    }

    /** 24 lowercase hex digits: a well-formed appKey or masterSecret no app has yet. */
    public static String randomKey() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String appKey() {
        return appKey;
    }

    public String masterSecret() {
        return masterSecret;
    }

    /** {@code Basic …} of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox. */
    public String authorization() {
        return authorization;
    }

    /** Where an SDK's JSMS host (api.sms.jpush.cn) goes: it serves {@code /v1}. */
    public String smsBaseUrl() {
        return baseUrl;
    }

    /** Where an SDK's JPush push host (api.jpush.cn) goes: it serves {@code /v3/push}, schedules… */
    public String pushBaseUrl() {
        return baseUrl;
    }

    /** Where an SDK's device host (device.jpush.cn) goes: {@code /v3/devices}, tags, aliases. */
    public String deviceBaseUrl() {
        return baseUrl;
    }

    /** Where an SDK's report host (report.jpush.cn) goes: {@code /v3/received}… */
    public String reportBaseUrl() {
        return baseUrl;
    }

    /** The web UI opened on this app (docs/web-ui.md, links). */
    public String uiLink() {
        return baseUrl + "/_sandbox/ui/?app=" + appKey;
    }

    // --- the app -----------------------------------------------------------------------------

    /** The app's settings, balances, developer and clock. */
    public JsonObject app() {
        return call("GET", "/_sandbox/app", null, null, 0);
    }

    /** Changes any of the app's settings at once ({@code PATCH /_sandbox/app}); answers the new state. */
    public JsonObject patchApp(Map<String, ?> patch) {
        return call("PATCH", "/_sandbox/app", null, patch, 0);
    }

    /** Back to its first use: all it did is gone, its fixtures and settings back, its clock real. */
    public JsonObject reset() {
        return call("POST", "/_sandbox/reset", null, null, 0);
    }

    /** Removes the app; the next request with these credentials provisions it afresh. */
    public JsonObject deleteApp() {
        return call("DELETE", "/_sandbox/app", null, null, 0);
    }

    /** Everything the app holds, as one JSON document (keep it as a CI artifact, import it elsewhere). */
    public String exportApp() {
        return send("GET", "/_sandbox/app/export", null, null, 0);
    }

    /** Makes the app hold exactly what {@code document} (an {@link #exportApp()}) says, its own credentials kept. */
    public JsonObject importApp(String document) {
        return Json.parseObject(send("POST", "/_sandbox/app/import", null, new RawJson(document), 0));
    }

    /** The sandbox's version, settings and database ({@code GET /_sandbox/info}, public). */
    public JsonObject info() {
        return call("GET", "/_sandbox/info", null, null, 0);
    }

    // --- the clock ---------------------------------------------------------------------------

    public JsonObject clock() {
        return call("GET", "/_sandbox/clock", null, null, 0);
    }

    /** Moves the app's clock forward; answers once all that fell due on the way has run. */
    public JsonObject advanceClock(Duration by) {
        return call("POST", "/_sandbox/clock", null, Map.of("advance_ms", by.toMillis()), 0);
    }

    /** Moves the app's clock forward to {@code time} (never back: 409 90053). */
    public JsonObject setClock(Instant time) {
        return call("POST", "/_sandbox/clock", null, Map.of("set", time.toString()), 0);
    }

    // --- texts -------------------------------------------------------------------------------

    /** The SMS that went out, newest first; filters: mobile, msg_id, kind, after, since, until, limit, wait. */
    public Page messages(Map<String, ?> filter) {
        return list(Lists.MESSAGES, filter);
    }

    public Page messages() {
        return messages(Map.of());
    }

    /** The latest code texted to {@code mobile}: 404 90044 when there is none. */
    public JsonObject latestCode(String mobile) {
        return call("GET", "/_sandbox/sms/codes/latest", Map.of("mobile", mobile), null, 0);
    }

    /** The latest code texted to {@code mobile}, waiting up to {@code wait} for one. */
    public JsonObject latestCode(String mobile, Duration wait) {
        long ms = Math.min(MAX_WAIT_MS, wait.toMillis());
        return call("GET", "/_sandbox/sms/codes/latest", Map.of("mobile", mobile, "wait", ms), null, ms);
    }

    /**
     * The next SMS matching {@code filter}, waiting up to {@code wait} for it: the first after the
     * last one this client's {@code nextMessage} returned for the same filter (or after {@code
     * filter}'s {@code after}, or after {@link #mark()}).
     */
    public JsonObject nextMessage(Map<String, ?> filter, Duration wait) {
        return next(Lists.MESSAGES, filter, wait);
    }

    public JsonObject nextMessage(Map<String, ?> filter) {
        return nextMessage(filter, DEFAULT_WAIT);
    }

    /** The delivery reports that arrived, newest first. */
    public Page reports(Map<String, ?> filter) {
        return list(Lists.REPORTS, filter);
    }

    /** The uplink replies the app got, newest first. */
    public Page replies(Map<String, ?> filter) {
        return list(Lists.REPLIES, filter);
    }

    // --- pushes and devices ------------------------------------------------------------------

    /** The pushes devices received, newest first; filters: registration_id, alias, msg_id, after, since… */
    public Page pushes(Map<String, ?> filter) {
        return list(Lists.PUSHES, filter);
    }

    public Page pushes() {
        return pushes(Map.of());
    }

    /** The next push a device received matching {@code filter}, waiting for it. */
    public JsonObject nextPush(Map<String, ?> filter, Duration wait) {
        return next(Lists.PUSHES, filter, wait);
    }

    public JsonObject nextPush(Map<String, ?> filter) {
        return nextPush(filter, DEFAULT_WAIT);
    }

    /** The app's devices. */
    public List<JsonObject> devices() {
        return call("GET", "/_sandbox/push/devices", null, null, 0).getObjects("devices");
    }

    /**
     * Registers a device as a phone app registering with JPush would: {@code platform} (android,
     * ios…), and optionally {@code registration_id}, {@code alias}, {@code tags}, {@code mobile},
     * {@code online}.
     */
    public JsonObject registerDevice(Map<String, ?> device) {
        return call("POST", "/_sandbox/push/devices", null, device, 0);
    }

    /** Brings a device online (what waits for it within its time_to_live is delivered now) or offline. */
    public JsonObject setOnline(String registrationId, boolean online) {
        return call("PATCH", "/_sandbox/push/devices/" + segment(registrationId), null, Map.of("online", online), 0);
    }

    /** The device opens a push it received (counted by the reports that count clicks). */
    public JsonObject click(String msgId, String registrationId) {
        return call("POST", "/_sandbox/push/messages/" + segment(msgId) + "/clicks", null,
            Map.of("registration_id", registrationId), 0);
    }

    // --- the journal and callbacks -----------------------------------------------------------

    /**
     * The request journal, newest first: each /v1 and /v3 call and each /_sandbox write, what it was
     * answered and, when refused, why ({@code reason}). Filters: method, path (a prefix), status, code, msg_id…
     */
    public Page requests(Map<String, ?> filter) {
        return list(Lists.REQUESTS, filter);
    }

    public Page requests() {
        return requests(Map.of());
    }

    /** The next request of the journal matching {@code filter} ({@code Map.of("status", 403)}), waiting for it. */
    public JsonObject nextRequest(Map<String, ?> filter, Duration wait) {
        return next(Lists.REQUESTS, filter, wait);
    }

    public JsonObject nextRequest(Map<String, ?> filter) {
        return nextRequest(filter, DEFAULT_WAIT);
    }

    /** The callbacks to the app's URL with their attempts, latest change first. */
    public Page callbacks(Map<String, ?> filter) {
        return list(Lists.CALLBACKS, filter);
    }

    /** The next callback matching {@code filter} to change, waiting for it. */
    public JsonObject nextCallback(Map<String, ?> filter, Duration wait) {
        return next(Lists.CALLBACKS, filter, wait);
    }

    /**
     * The app's latest seq, which it returns; from then on {@code next…()} calls return only what
     * comes after it. (Until the first mark they start from the app's first item.)
     */
    public long mark() {
        // A list's answer with no item says the app's latest seq: nothing is older than epoch 0.
        long seq = list(Lists.REPLIES, Map.of("until", 0, "limit", 1)).nextAfter();
        synchronized (cursors) {
            cursors.clear();
            origin = seq;
        }
        return seq;
    }

    // --- steering ----------------------------------------------------------------------------

    /** Arms a fault on /v1 or /v3; answers it as armed (its {@code id}, {@code remaining}). */
    public JsonObject armFault(Fault fault) {
        return armFault(fault.toMap());
    }

    public JsonObject armFault(Map<String, ?> fault) {
        return call("POST", "/_sandbox/faults", null, fault, 0);
    }

    public List<JsonObject> faults() {
        return call("GET", "/_sandbox/faults", null, null, 0).getObjects("faults");
    }

    /** Disarms every fault of the app; answers how many there were. */
    public int clearFaults() {
        return call("DELETE", "/_sandbox/faults", null, null, 0).getInt("cleared");
    }

    /** A handset replies to the app (pulled by GET /v1/reply, or called back). */
    public JsonObject reply(String mobile, String content) {
        return call("POST", "/_sandbox/sms/replies", null, Map.of("mobile", mobile, "content", content), 0);
    }

    /** The message's delivery report gets this status (4001–4100) when it falls due. */
    public JsonObject setReport(String msgId, int status) {
        return call("POST", "/_sandbox/sms/reports", null, Map.of("msg_id", msgId, "status", status), 0);
    }

    /** The reviewer approves a template (status 1). */
    public JsonObject approveTemplate(long tempId) {
        return review("templates", tempId, 1, null);
    }

    /** The reviewer rejects a template (status 2) with its words. */
    public JsonObject rejectTemplate(long tempId, String refuseReason) {
        return review("templates", tempId, 2, refuseReason);
    }

    public JsonObject approveSign(long signId) {
        return review("signs", signId, 1, null);
    }

    public JsonObject rejectSign(long signId, String refuseReason) {
        return review("signs", signId, 2, refuseReason);
    }

    private JsonObject review(String kind, long id, int status, String refuseReason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        if (refuseReason != null) body.put("refuse_reason", refuseReason);
        return call("POST", "/_sandbox/sms/" + kind + "/" + id + "/review", null, body, 0);
    }

    // --- lists and waiting -------------------------------------------------------------------

    private enum Lists {
        MESSAGES("/_sandbox/sms/messages", "messages"),
        PUSHES("/_sandbox/push/messages", "messages"),
        REPORTS("/_sandbox/sms/reports", "reports"),
        REPLIES("/_sandbox/sms/replies", "replies"),
        CALLBACKS("/_sandbox/callbacks", "callbacks"),
        REQUESTS("/_sandbox/requests", "requests");

        final String path;
        final String key;

        Lists(String path, String key) {
            this.path = path;
            this.key = key;
        }
    }

    private Page list(Lists list, Map<String, ?> filter) {
        Object wait = filter.get("wait");
        long waitMs = wait instanceof Number ? ((Number) wait).longValue() : 0;
        return new Page(call("GET", list.path, filter, null, waitMs), list.key);
    }

    /**
     * The first item after the cursor matching {@code filter}, once it exists; nothing within
     * {@code wait} throws NothingArrived with what did arrive in the list after the same seq.
     */
    private JsonObject next(Lists list, Map<String, ?> filter, Duration wait) {
        Map<String, Object> own = new TreeMap<>(filter);
        Object given = own.remove("after");
        own.remove("limit");
        own.remove("wait");
        String key = list.path + "?" + Json.write(own);
        long after;
        synchronized (cursors) {
            after = given instanceof Number ? ((Number) given).longValue() : cursors.getOrDefault(key, origin);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long left = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
            Map<String, Object> query = new LinkedHashMap<>(own);
            query.put("after", after);
            query.put("limit", 1);
            query.put("wait", Math.min(MAX_WAIT_MS, left));
            List<JsonObject> items = list(list, query).items();
            if (!items.isEmpty()) {
                JsonObject item = items.get(0);
                synchronized (cursors) {
                    cursors.put(key, item.getLong("seq"));
                }
                return item;
            }
            // A held request also ends early when the app is reset: then it is asked again.
            if (System.nanoTime() >= deadline) {
                List<JsonObject> arrived = list(list, Map.of("after", after, "limit", 20)).items();
                throw new NothingArrived(list.path, own, after, wait.toMillis(), arrived);
            }
        }
    }

    // --- HTTP --------------------------------------------------------------------------------

    /** A body sent as it is (an exported document), not written from a Map. */
    private static final class RawJson {
        final String text;

        RawJson(String text) {
            this.text = text;
        }
    }

    private JsonObject call(String method, String path, Map<String, ?> query, Object body, long waitMs) {
        String text = send(method, path, query, body, waitMs);
        try {
            return Json.parseObject(text);
        } catch (IllegalArgumentException err) {
            throw new SandboxException(200, null, method + " " + path + ": the answer is not JSON: " + Json.abbreviate(text, 200), text);
        }
    }

    private String send(String method, String path, Map<String, ?> query, Object body, long waitMs) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path + queryString(query)))
            // a held request (wait=) answers within its wait; anything else within the sandbox's own 30 s
            .timeout(Duration.ofMillis(waitMs + 30_000))
            .header("Authorization", authorization)
            .header("Accept", "application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            String json = body instanceof RawJson ? ((RawJson) body).text : Json.write(body);
            request.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        }
        HttpResponse<String> answer;
        try {
            answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException err) {
            throw new SandboxException(method + " " + path + ": no answer from " + baseUrl + ": " + err, err);
        } catch (InterruptedException err) {
            Thread.currentThread().interrupt();
            throw new SandboxException(method + " " + path + ": interrupted", err);
        }
        if (answer.statusCode() >= 200 && answer.statusCode() < 300) return answer.body();
        throw SandboxException.fromAnswer(method, path, answer.statusCode(), answer.body());
    }

    static String queryString(Map<String, ?> query) {
        if (query == null || query.isEmpty()) return "";
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, ?> entry : query.entrySet()) {
            if (entry.getValue() == null) continue;
            text.append(text.length() == 0 ? '?' : '&')
                .append(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(String.valueOf(entry.getValue()), StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    private static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "SandboxClient[" + appKey + " at " + baseUrl + "]";
    }
}
