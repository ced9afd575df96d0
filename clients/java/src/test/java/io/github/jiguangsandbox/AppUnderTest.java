package io.github.jiguangsandbox;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Stands for the application under test: it calls JSMS and JPush at the base URLs and with the
 * credentials a test hands it, as any HTTP client would.
 */
final class AppUnderTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final SandboxClient sb;

    AppUnderTest(SandboxClient sb) {
        this.sb = sb;
    }

    /** Texts a verification code (template 1) to {@code mobile}; answers the vendor's JSON. */
    Answer sendCode(String mobile) {
        return post(sb.smsBaseUrl() + "/v1/codes", "{\"mobile\":\"" + mobile + "\",\"temp_id\":1}");
    }

    Answer verify(String msgId, String code) {
        return post(sb.smsBaseUrl() + "/v1/codes/" + msgId + "/valid", "{\"code\":\"" + code + "\"}");
    }

    /** A notification with template {@code tempId} and its parameters. */
    Answer send(String mobile, int tempId, Map<String, String> tempPara) {
        return post(sb.smsBaseUrl() + "/v1/messages",
            Json.write(Map.of("mobile", mobile, "temp_id", tempId, "temp_para", tempPara)));
    }

    /** A notification with template {@code tempId} (2: order, days). */
    Answer sendNotice(String mobile, int tempId, String order) {
        return send(mobile, tempId, Map.of("order", order, "days", "2"));
    }

    Answer push(String body) {
        return post(sb.pushBaseUrl() + "/v3/push", body);
    }

    /** The vendor's answer: its HTTP status and JSON body. */
    record Answer(int status, JsonObject body) {
        /** The vendor's error code, or 0 for a success. */
        int errorCode() {
            JsonObject error = body.getObject("error");
            return error == null ? 0 : error.getInt("code");
        }
    }

    private Answer post(String url, String body) {
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", sb.authorization())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
            return new Answer(answer.statusCode(), Json.parseObject(answer.body()));
        } catch (Exception err) {
            throw new IllegalStateException(url + ": " + err, err);
        }
    }
}
