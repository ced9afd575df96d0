package standin;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the stand-ins share: an HTTP exchange on HttpURLConnection (the JDK client every stand-in
 * here sends with, as jiguang-common's NativeHttpClient does) and the little JSON they read and
 * write. Not a part of any SDK: the SDKs use Gson or Jackson.
 */
public final class Wire {
    private Wire() {}

    public static final class Answer {
        public final int status;
        public final String body;
        public final Map<String, String> headers;

        Answer(int status, String body, Map<String, String> headers) {
            this.status = status;
            this.body = body;
            this.headers = headers;
        }
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** One request, its headers set in the order given (the JDK keeps that order), the body written as bytes. */
    public static Answer send(String method, String url, Map<String, String> headers, String body) throws Exception {
        HttpURLConnection conn = (HttpURLConnection) new URL(url).openConnection();
        conn.setConnectTimeout(5_000);
        conn.setReadTimeout(30_000);
        conn.setUseCaches(false);
        conn.setRequestMethod(method);
        for (Map.Entry<String, String> h : headers.entrySet()) conn.setRequestProperty(h.getKey(), h.getValue());
        if (body != null) {
            byte[] data = body.getBytes(StandardCharsets.UTF_8);
            conn.setDoOutput(true);
            conn.setRequestProperty("Content-Length", String.valueOf(data.length));
            try (OutputStream out = conn.getOutputStream()) {
                out.write(data);
            }
        }
        int status = conn.getResponseCode();
        InputStream in = status / 100 == 2 ? conn.getInputStream() : conn.getErrorStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        if (in != null) in.transferTo(read);
        Map<String, String> answerHeaders = new LinkedHashMap<>();
        conn.getHeaderFields().forEach((k, v) -> { if (k != null) answerHeaders.put(k.toLowerCase(), v.get(0)); });
        conn.disconnect();
        return new Answer(status, read.toString(StandardCharsets.UTF_8), answerHeaders);
    }

    /** A JSON string literal, as Gson and Jackson write it (no HTML escaping of what these texts hold). */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    /** A top-level field of a flat JSON answer, string or number, as text; null when absent. */
    public static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?\\d+)").matcher(json);
        if (!m.find()) return null;
        return m.group(2) != null ? m.group(2) : m.group(1);
    }
}
