package io.github.jiguangsandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.jiguangsandbox.junit5.JiguangSandbox;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * A failing test's app is kept: DeliberatelyFailing runs in a JUnit run of its own (the Launcher API,
 * as an IDE or Surefire starts one) against this run's sandbox, and what it leaves is checked: the
 * printed line, the report entry, the export file, and the web UI's link.
 */
@JiguangSandbox
class FailureReportTest {
    static final Pattern LINE = Pattern.compile(
        "jiguang-sandbox: DeliberatelyFailing\\.expectsATextThatNeverCame failed; app ([0-9a-f]{24}) exported to (\\S+); web UI: (\\S+)");

    @Test
    void aFailingTestIsExportedAndLinked(SandboxServer server, SandboxClient sb, @TempDir Path reports) throws Exception {
        List<ReportEntry> entries = new ArrayList<>();
        List<TestExecutionResult> results = new ArrayList<>();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Launcher launcher = LauncherFactory.create();
            launcher.execute(request()
                .selectors(selectClass(DeliberatelyFailing.class))
                .configurationParameter("jiguang.sandbox.url", server.url())
                .configurationParameter("jiguang.sandbox.reports", reports.toString())
                .build(), summary, new TestExecutionListener() {
                    @Override
                    public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
                        entries.add(entry);
                    }

                    @Override
                    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                        if (test.isTest()) results.add(result);
                    }
                });
        } finally {
            System.setOut(out);
        }
        String output = printed.toString(StandardCharsets.UTF_8);
        System.out.print(output); // what the child run printed, for whoever reads this run's log

        assertEquals(1, summary.getSummary().getTestsFailedCount(), output);
        assertEquals(TestExecutionResult.Status.FAILED, results.get(0).getStatus());
        Throwable failure = results.get(0).getThrowable().orElseThrow();
        assertTrue(failure instanceof NothingArrived, failure.toString());

        Matcher line = LINE.matcher(output);
        assertTrue(line.find(), "the line a failing test prints, in:\n" + output);
        String appKey = line.group(1);
        Path file = Path.of(line.group(2));
        String link = line.group(3);
        assertEquals(reports.resolve("DeliberatelyFailing.expectsATextThatNeverCame.json"), file);
        assertEquals(server.url() + "/_sandbox/ui/?app=" + appKey, link);

        // the same as report entries (in the XML reports of Surefire and the console launcher)
        Map<String, String> entry = entries.get(0).getKeyValuePairs();
        assertEquals(appKey, entry.get("jiguang-sandbox.app"));
        assertEquals(link, entry.get("jiguang-sandbox.ui"));
        assertEquals(file.toString(), entry.get("jiguang-sandbox.export"));

        // the document is the failed test's app, with the refusal and its reason
        String document = Files.readString(file);
        JsonObject parsed = Json.parseObject(document);
        assertEquals("jiguang-sandbox/app", parsed.getString("format"));
        assertEquals(appKey, parsed.getString("app_key"));
        assertTrue(sb.importApp(document).getBoolean("imported"));
        JsonObject refused = sb.requests(Map.of("code", 50013)).items().get(0);
        assertTrue(refused.getString("reason").contains("template 99"), refused.toString());

        // the link opens the web UI (its page is public; the app stays in the sandbox for it)
        HttpResponse<String> page = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("/_sandbox/ui/main.js"), page.body());
    }

    @Test
    void aPassingTestsAppIsRemoved(SandboxServer server, @TempDir Path reports) throws IOException {
        // a child run of a test that passes: nothing written, its app removed
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request()
            .selectors(selectClass(Passing.class))
            .configurationParameter("jiguang.sandbox.url", server.url())
            .configurationParameter("jiguang.sandbox.reports", reports.toString())
            .build(), summary);
        assertEquals(1, summary.getSummary().getTestsSucceededCount());
        try (var files = Files.list(reports)) {
            assertEquals(0, files.count());
        }
        // the operator (SANDBOX_OPERATOR, operator:operator by default) sees every app: not that one
        HttpResponse<String> apps = operator(server, "/_sandbox/apps?prefix=" + Passing.appKey);
        assertEquals(200, apps.statusCode(), apps.body());
        assertTrue(Json.parseObject(apps.body()).getObjects("apps").isEmpty(), apps.body());
    }

    @Test
    void aClassAppIsKeptWhenOneOfItsTestsFails(SandboxServer server, @TempDir Path reports) throws IOException {
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request()
            .selectors(selectClass(OneOfTwoFails.class))
            .configurationParameter("jiguang.sandbox.url", server.url())
            .configurationParameter("jiguang.sandbox.reports", reports.toString())
            .build(), summary);
        assertEquals(1, summary.getSummary().getTestsSucceededCount());
        assertEquals(1, summary.getSummary().getTestsFailedCount());
        // exported under the failing test's name, as it stood when that test failed
        JsonObject document = Json.parseObject(Files.readString(reports.resolve("OneOfTwoFails.fails.json")));
        assertEquals(OneOfTwoFails.app.appKey(), document.getString("app_key"));
        // and not removed with its class
        assertEquals(1, Json.parseObject(operator(server, "/_sandbox/apps?prefix=" + OneOfTwoFails.app.appKey()).body())
            .getObjects("apps").size());
    }

    static HttpResponse<String> operator(SandboxServer server, String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Basic b3BlcmF0b3I6b3BlcmF0b3I=").build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException | InterruptedException err) {
            throw new IllegalStateException(err);
        }
    }

    /** One app for the class (a @BeforeAll parameter), one test passing and one failing, for a child run above. */
    @JiguangSandbox
    @org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.MethodName.class)
    static class OneOfTwoFails {
        static volatile SandboxClient app;

        @org.junit.jupiter.api.BeforeAll
        static void oneAppForTheClass(SandboxClient sb) {
            app = sb;
        }

        @Test
        void fails() {
            app.requests();
            org.junit.jupiter.api.Assertions.fail("on purpose");
        }

        @Test
        void passes() {
            app.requests();
        }
    }

    /** A test that passes, for a child run above. */
    @JiguangSandbox
    static class Passing {
        static volatile String appKey;

        @Test
        void passes(SandboxClient sb) {
            appKey = sb.appKey();
            sb.app();
        }
    }
}
