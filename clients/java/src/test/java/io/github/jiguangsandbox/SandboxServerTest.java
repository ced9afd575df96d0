package io.github.jiguangsandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the sandbox comes from, without the extension: a process of its own, a URL, a command that fails. */
class SandboxServerTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    /** The command this run's sandboxes are started with (CI: the checkout's dist/server.js). */
    static String command() {
        String given = System.getenv("JIGUANG_SANDBOX_COMMAND");
        return given == null || given.isBlank() ? "npx --yes jiguang-sandbox" : given;
    }

    static int ready(String url) throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/_sandbox/ready")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException refused) {
            return -1;
        }
    }

    @Test
    void aCommandIsStartedOnAFreePortAndStopped() throws InterruptedException {
        String url;
        try (SandboxServer server = SandboxServer.start(Map.of("JIGUANG_SANDBOX_COMMAND", command()))) {
            url = server.url();
            assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+"), url);
            assertEquals(200, ready(url));
            assertEquals(Version.CLIENT, server.createApp().info().getString("version"));
        }
        assertEquals(-1, ready(url), "stopped with the run");
    }

    @Test
    void aGivenUrlIsUsedAndLeftRunning() throws InterruptedException {
        try (SandboxServer own = SandboxServer.start(Map.of("JIGUANG_SANDBOX_COMMAND", command()))) {
            SandboxServer given = SandboxServer.start(Map.of("JIGUANG_SANDBOX_URL", own.url() + "/"));
            assertEquals(own.url(), given.url());
            assertEquals("JIGUANG_SANDBOX_URL", given.origin());
            given.close();
            assertEquals(200, ready(own.url()), "what it did not start, it does not stop");
        }
    }

    @Test
    void aCommandThatExitsSaysSo() {
        IllegalStateException err = assertThrows(IllegalStateException.class,
            () -> SandboxServer.start(Map.of("JIGUANG_SANDBOX_COMMAND", "node -e console.log('no-sandbox-here');process.exit(3) --")));
        assertTrue(err.getMessage().contains("exited with status 3 before it listened"), err.getMessage());
        assertTrue(err.getMessage().contains("no-sandbox-here"), err.getMessage());
    }

    @Test
    void aCommandThatIsNotThereSaysWhatToSet() {
        IllegalStateException err = assertThrows(IllegalStateException.class,
            () -> SandboxServer.start(Map.of("JIGUANG_SANDBOX_COMMAND", "/nonexistent/jiguang-sandbox")));
        assertTrue(err.getMessage().contains("JIGUANG_SANDBOX_URL"), err.getMessage());
    }
}
