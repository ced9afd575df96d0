package io.github.jiguangsandbox.junit5;

import io.github.jiguangsandbox.SandboxClient;
import io.github.jiguangsandbox.SandboxServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension of the sandbox ({@code @ExtendWith(JiguangSandboxExtension.class)}, {@code
 * @JiguangSandbox}, or {@code @RegisterExtension}):
 * <ul>
 *   <li>the run's sandbox is found or started once, on first use, and stopped when the run ends
 *       ({@link SandboxServer#start()}: JIGUANG_SANDBOX_URL, a Docker image, or a child process);</li>
 *   <li>a {@link SandboxClient} parameter (of a test, a {@code @BeforeEach} or {@code @AfterEach}
 *       method: one app for all three) is an app of the test's own, new and empty; a parameter of
 *       {@code @BeforeAll} or a per-class constructor is one app for the class;</li>
 *   <li>when the test passed, its app is removed; when it failed, its app is kept (a class's app,
 *       when one of its tests failed), its document is exported to {@code target/jiguang-sandbox/<Class>.<method>.json} ({@code build/} under
 *       Gradle, JIGUANG_SANDBOX_REPORTS when set) and the web UI's link to it is printed and
 *       published as a report entry.</li>
 * </ul>
 * Each JIGUANG_SANDBOX_* setting may also be given as a JUnit configuration parameter {@code
 * jiguang.sandbox.url}, {@code .image}, {@code .command}, {@code .reports}
 * (junit-platform.properties, a system property), which wins over the environment.
 */
public class JiguangSandboxExtension implements ParameterResolver, AfterEachCallback, AfterAllCallback {
    private static final Namespace NAMESPACE = Namespace.create(JiguangSandboxExtension.class);
    /** The export files written in this run, so two failing invocations of one method keep both. */
    private static final Set<String> WRITTEN = ConcurrentHashMap.newKeySet();

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == SandboxClient.class || type == SandboxServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        SandboxServer server = server(context);
        if (parameter.getParameter().getType() == SandboxServer.class) return server;
        return context.getStore(NAMESPACE)
            .getOrComputeIfAbsent(App.class, key -> new App(server.createApp(), context.getUniqueId()), App.class)
            .client;
    }

    /** The run's sandbox: one per launcher run (the root context), closed when the run ends. */
    public static SandboxServer server(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
            .getOrComputeIfAbsent(Run.class, key -> new Run(SandboxServer.start(settings(context))), Run.class)
            .server;
    }

    /**
     * The environment, where JUnit's configuration parameters {@code jiguang.sandbox.url}, {@code
     * .image}, {@code .command} (junit-platform.properties, {@code -D…}, a launcher request's) override
     * {@code JIGUANG_SANDBOX_URL}, {@code _IMAGE}, {@code _COMMAND}.
     */
    private static Map<String, String> settings(ExtensionContext context) {
        Map<String, String> settings = new HashMap<>(System.getenv());
        for (String name : List.of("URL", "IMAGE", "COMMAND"))
            setting(context, name).ifPresent(value -> settings.put("JIGUANG_SANDBOX_" + name, value));
        return settings;
    }

    /** {@code jiguang.sandbox.<name>} of the run's configuration, else JIGUANG_SANDBOX_<NAME>. */
    private static Optional<String> setting(ExtensionContext context, String name) {
        Optional<String> configured = context.getConfigurationParameter("jiguang.sandbox." + name.toLowerCase(Locale.ROOT))
            .filter(value -> !value.isBlank());
        if (configured.isPresent()) return configured;
        return Optional.ofNullable(System.getenv("JIGUANG_SANDBOX_" + name)).filter(value -> !value.isBlank());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        finish(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        finish(context);
    }

    private static void finish(ExtensionContext context) {
        App app = context.getStore(NAMESPACE).get(App.class, App.class);
        if (app == null) return;
        boolean failed = context.getExecutionException().isPresent();
        if (!app.owner.equals(context.getUniqueId())) {
            // Store.get also finds the class's app from a test: a failing test keeps it, exported as it
            // stood then, under the test's name; its owner (the class) finishes it
            if (failed) {
                app.kept = true;
                keep(context, app.client);
            }
            return;
        }
        context.getStore(NAMESPACE).remove(App.class);
        if (failed) {
            keep(context, app.client);
        } else if (!app.kept) {
            try {
                app.client.deleteApp();
            } catch (RuntimeException err) {
                System.err.println("jiguang-sandbox: could not remove the app " + app.client.appKey() + ": " + err.getMessage());
            }
        }
    }

    /** A failed test's app stays; its document goes to the reports folder and its link is printed. */
    private static void keep(ExtensionContext context, SandboxClient client) {
        String test = testName(context);
        String link = client.uiLink();
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("jiguang-sandbox.app", client.appKey());
        entry.put("jiguang-sandbox.ui", link);
        String saved;
        try {
            Path file = reportFile(context, test);
            Files.createDirectories(file.getParent());
            Files.writeString(file, client.exportApp(), StandardCharsets.UTF_8);
            saved = "app " + client.appKey() + " exported to " + file;
            entry.put("jiguang-sandbox.export", file.toString());
        } catch (IOException | RuntimeException err) {
            saved = "app " + client.appKey() + " could not be exported: " + err.getMessage();
        }
        System.out.println("jiguang-sandbox: " + test + " failed; " + saved + "; web UI: " + link);
        context.publishReportEntry(entry);
    }

    private static String testName(ExtensionContext context) {
        String name = context.getRequiredTestClass().getSimpleName();
        return context.getTestMethod().map(method -> name + "." + method.getName()).orElse(name);
    }

    /** {@code <reports>/<Class>.<method>.json}; a second failure of that name in the run adds -2, -3… */
    private static Path reportFile(ExtensionContext context, String test) {
        Path dir = reportsDir(context);
        String base = test.replaceAll("[^A-Za-z0-9._-]", "_");
        String name = base + ".json";
        for (int n = 2; !WRITTEN.add(dir.toAbsolutePath().resolve(name).toString()); n++) name = base + "-" + n + ".json";
        return dir.resolve(name);
    }

    /**
     * {@code jiguang.sandbox.reports} (a configuration parameter) or JIGUANG_SANDBOX_REPORTS, else
     * Maven's target/jiguang-sandbox (Gradle's build/ beside a build.gradle).
     */
    static Path reportsDir(ExtensionContext context) {
        Optional<String> given = setting(context, "REPORTS");
        if (given.isPresent()) return Paths.get(given.get());
        boolean gradle = (Files.exists(Paths.get("build.gradle")) || Files.exists(Paths.get("build.gradle.kts")))
            && !Files.exists(Paths.get("pom.xml"));
        return Paths.get(gradle ? "build" : "target", "jiguang-sandbox");
    }

    /** The run's sandbox, stopped when the root context closes (the end of the run). */
    private static final class Run implements ExtensionContext.Store.CloseableResource {
        final SandboxServer server;

        Run(SandboxServer server) {
            this.server = server;
        }

        @Override
        public void close() {
            server.close();
        }
    }

    /** A test's (or a class's) app, the context it belongs to, and whether a failed test kept it. */
    private static final class App {
        final SandboxClient client;
        final String owner;
        volatile boolean kept;

        App(SandboxClient client, String owner) {
            this.client = client;
            this.owner = owner;
        }
    }
}
