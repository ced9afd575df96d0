package cn.jiguang.common.connection;

import java.util.LinkedHashMap;
import java.util.Map;
import standin.Wire;

/**
 * Stands in for jiguang-common 1.2.x's NativeHttpClient
 * (src/main/java/cn/jiguang/common/connection/NativeHttpClient.java, _doRequest): HttpURLConnection
 * with its headers in its order (the JDK itself drops the restricted Connection and
 * Content-Length it sets, and sends its own), UTF-8 bytes; 2xx is success, anything else an
 * APIRequestException (here an IllegalStateException with the body).
 */
public class NativeHttpClient {
    private final String authCode;

    public NativeHttpClient(String authCode) {
        this.authCode = authCode;
    }

    public Wire.Answer sendPost(String url, String content) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("User-Agent", "JPush-API-Java-Client");
        headers.put("Connection", "Keep-Alive");
        headers.put("Accept-Charset", "UTF-8");
        headers.put("Charset", "UTF-8");
        headers.put("Authorization", authCode);
        headers.put("Content-Type", "application/json");
        Wire.Answer answer = Wire.send("POST", url, headers, content);
        if (answer.status / 100 != 2) throw new IllegalStateException("APIRequestException " + answer.status + ": " + answer.body);
        return answer;
    }
}
