package io.github.jiguangsandbox;

/**
 * A refusal of the sandbox: its HTTP status and the {@code code} of its
 * {@code {"error":{"code":…,"message":…}}} envelope (the control plane's own codes are 90001–90099,
 * docs/control-plane.md "Errors of the control plane"). {@code code} is null when the answer was
 * not that envelope (a proxy's page, a cut connection); {@link #body()} holds what came.
 */
public class SandboxException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final Integer code;
    private final String body;

    public SandboxException(int status, Integer code, String message, String body) {
        super(message);
        this.status = status;
        this.code = code;
        this.body = body;
    }

    SandboxException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
        this.code = null;
        this.body = null;
    }

    /** The HTTP status (0 when no answer came). */
    public int status() {
        return status;
    }

    /** The envelope's code (90020…), or null. */
    public Integer code() {
        return code;
    }

    /** The answer's body as received, or null. */
    public String body() {
        return body;
    }

    /** The error an answer carries. */
    static SandboxException fromAnswer(String method, String path, int status, String text) {
        try {
            Object parsed = Json.parse(text);
            if (parsed instanceof JsonObject) {
                JsonObject error = ((JsonObject) parsed).getObject("error");
                if (error != null && error.get("code") instanceof Long && error.get("message") instanceof String) {
                    int code = error.getInt("code");
                    return new SandboxException(
                        status, code, method + " " + path + ": " + code + " " + error.getString("message"), text);
                }
            }
        } catch (RuntimeException notJson) {
            // a proxy's page, a cut answer: said as it came
        }
        return new SandboxException(status, null, (method + " " + path + ": HTTP " + status + " " + Json.abbreviate(text, 200)).trim(), text);
    }
}
