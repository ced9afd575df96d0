package io.github.jiguangsandbox;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fault to arm (docs/control-plane.md "Fault injection"): the next {@code times} requests of the
 * app to {@code path} are answered with the vendor's error {@code code}, or held {@code delay} first.
 * <pre>{@code sb.armFault(Fault.on("/v1/codes").code(50019));}</pre>
 */
public final class Fault {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    private Fault(String path) {
        fields.put("path", path);
    }

    /** A concrete path, a route pattern ({@code /v1/codes/:msg_id/valid}) or {@code *} for every /v1 and /v3 request. */
    public static Fault on(String path) {
        return new Fault(path);
    }

    public Fault method(String method) {
        fields.put("method", method);
        return this;
    }

    /** The vendor's error code to answer (its documented status and message unless given). */
    public Fault code(int code) {
        fields.put("code", code);
        return this;
    }

    public Fault status(int status) {
        fields.put("status", status);
        return this;
    }

    public Fault message(String message) {
        fields.put("message", message);
        return this;
    }

    /** Holds the request this long (real time, at most 60 s) before answering. */
    public Fault delay(Duration delay) {
        fields.put("delay_ms", delay.toMillis());
        return this;
    }

    /** How many requests it answers (1 unless given). */
    public Fault times(int times) {
        fields.put("times", times);
        return this;
    }

    /** Only requests naming this mobile (a /v1 path). */
    public Fault matchMobile(String mobile) {
        fields.put("match", Map.of("mobile", mobile));
        return this;
    }

    /** Only requests naming this registration_id (a /v3 path). */
    public Fault matchRegistrationId(String registrationId) {
        fields.put("match", Map.of("registration_id", registrationId));
        return this;
    }

    /** The body of {@code POST /_sandbox/faults}. */
    public Map<String, Object> toMap() {
        return new LinkedHashMap<>(fields);
    }

    @Override
    public String toString() {
        return Json.write(fields);
    }
}
