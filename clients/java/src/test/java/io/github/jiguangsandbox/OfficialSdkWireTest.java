package io.github.jiguangsandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.jiguangsandbox.junit5.JiguangSandbox;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The base URLs used as the official Java SDKs use them, with the bytes they send (read from their
 * sources; the SDKs themselves are not on this machine: no Maven Central):
 * <ul>
 *   <li>the HTTP layer of both, jpush/jiguang-java-client-common
 *       {@code src/main/java/cn/jiguang/common/connection/NativeHttpClient.java} ({@code _doRequest}):
 *       HttpURLConnection with User-Agent {@code JPush-API-Java-Client}, {@code Connection: Keep-Alive},
 *       {@code Accept-Charset: UTF-8}, {@code Charset: UTF-8}, Basic Authorization, {@code
 *       Content-Type: application/json}, the body as UTF-8 bytes;</li>
 *   <li>JSMS, jpush/jsms-api-java-client {@code src/main/java/cn/jsms/api/common/SMSClient.java}:
 *       {@code sendSMSCode} POSTs {@code SMSPayload} (Gson, compact: {@code {"mobile":…,"temp_id":1}})
 *       to {@code sms.api.host.name + "/v1/codes"}, {@code sendValidSMSCode} POSTs {@code {"code":…}}
 *       to {@code …/v1/codes/<msg_id>/valid} — {@code JSMSConfig.getInstance().getClientConfig()
 *       .put("sms.api.host.name", sb.smsBaseUrl())} points it at the sandbox;</li>
 *   <li>JPush, jpush/jpush-api-java-client {@code src/main/java/cn/jpush/api/push/PushClient.java}:
 *       {@code sendPush(PushPayload.alertAll("hello"))} POSTs {@code push.host.name + "/v3/push"},
 *       the payload with the {@code options} it adds ({@code sendno} random, {@code apns_production}
 *       false) — {@code ClientConfig.getInstance().setPushHostName(sb.pushBaseUrl())}.</li>
 * </ul>
 */
@JiguangSandbox
class OfficialSdkWireTest {
    static final String MOBILE = "13800138000";

    record Answer(int status, JsonObject body) {}

    /** What NativeHttpClient does for one call. */
    static Answer nativeHttpClient(String method, String url, String authorization, String content) throws IOException {
        HttpURLConnection conn = (HttpURLConnection) new URL(url).openConnection();
        conn.setConnectTimeout(5_000);
        conn.setReadTimeout(30_000);
        conn.setUseCaches(false);
        conn.setRequestMethod(method);
        conn.setRequestProperty("User-Agent", "JPush-API-Java-Client");
        conn.setRequestProperty("Connection", "Keep-Alive");
        conn.setRequestProperty("Accept-Charset", "UTF-8");
        conn.setRequestProperty("Charset", "UTF-8");
        conn.setRequestProperty("Authorization", authorization);
        conn.setRequestProperty("Content-Type", "application/json");
        if (content != null) {
            conn.setDoOutput(true);
            byte[] data = content.getBytes(StandardCharsets.UTF_8);
            conn.setRequestProperty("Content-Length", String.valueOf(data.length));
            try (OutputStream out = conn.getOutputStream()) {
                out.write(data);
            }
        }
        int status = conn.getResponseCode();
        try (InputStream in = status / 100 == 2 ? conn.getInputStream() : conn.getErrorStream()) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            in.transferTo(body);
            return new Answer(status, Json.parseObject(body.toString(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void jsmsSendsAndVerifiesACode(SandboxClient sb) throws IOException {
        String host = sb.smsBaseUrl(); // JSMSConfig "sms.api.host.name"
        Answer sent = nativeHttpClient("POST", host + "/v1/codes", sb.authorization(), "{\"mobile\":\"" + MOBILE + "\",\"temp_id\":1}");
        assertEquals(200, sent.status());
        String msgId = sent.body().getString("msg_id"); // SendSMSResult.msg_id is a String

        JsonObject code = sb.latestCode(MOBILE);
        assertEquals(msgId, code.getString("msg_id"));
        // sendValidSMSCode refuses anything but six digits before sending
        assertTrue(code.getString("code").matches("^[0-9]{6}"));
        Answer valid = nativeHttpClient("POST", host + "/v1/codes/" + msgId + "/valid", sb.authorization(),
            "{\"code\":\"" + code.getString("code") + "\"}");
        assertEquals(200, valid.status());
        assertTrue(valid.body().getBoolean("is_valid"));

        // the journal saw the SDK's own headers
        JsonObject entry = sb.nextRequest(Map.of("path", "/v1/codes", "method", "POST"));
        assertEquals("JPush-API-Java-Client", entry.getString("user_agent"));
    }

    @Test
    void jpushAlertAllReachesTheDevices(SandboxClient sb) throws IOException {
        String host = sb.pushBaseUrl(); // ClientConfig "push.host.name"
        String payload = "{\"platform\":\"all\",\"audience\":\"all\",\"notification\":{\"alert\":\"hello\"},"
            + "\"options\":{\"sendno\":1288474919,\"apns_production\":false}}";
        Answer sent = nativeHttpClient("POST", host + "/v3/push", sb.authorization(), payload);
        assertEquals(200, sent.status(), sent.body().toString());
        // PushResult.sendno is an int: Gson reads the echoed "1288474919" into it
        assertEquals("1288474919", sent.body().getString("sendno"));
        String msgId = sent.body().getString("msg_id");
        assertTrue(msgId.matches("\\d{1,19}"), "PushResult.msg_id is a long: " + msgId);
        // every fixture device is online: each got it
        JsonObject got = sb.nextPush(Map.of("msg_id", msgId));
        assertEquals("hello", got.getObject("notification").getString("alert"));
        assertEquals(sb.devices().size(), sb.pushes(Map.of("msg_id", msgId)).size());
    }

    @Test
    void aRefusalIsTheEnvelopeTheSdkReads(SandboxClient sb) throws IOException {
        // APIRequestException reads error.code / error.message of a 4xx body
        Answer refused = nativeHttpClient("POST", sb.smsBaseUrl() + "/v1/codes", sb.authorization(),
            "{\"mobile\":\"" + MOBILE + "\",\"temp_id\":99}");
        assertEquals(403, refused.status());
        assertEquals(50013, refused.body().getObject("error").getInt("code"));
    }
}
