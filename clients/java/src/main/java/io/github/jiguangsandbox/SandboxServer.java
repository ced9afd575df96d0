package io.github.jiguangsandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sandbox of a test run, found or started once and stopped at its end (clients-contract: "Where
 * the sandbox comes from"):
 * <ol>
 *   <li>{@code JIGUANG_SANDBOX_URL} set: that one (nothing started, nothing stopped);</li>
 *   <li>else a Docker CLI that answers {@code docker info} and the image {@code JIGUANG_SANDBOX_IMAGE}
 *       ({@code jiguang-sandbox:<client version>}, else {@code jiguang-sandbox:latest}) present locally:
 *       {@code docker run -d --rm -p 127.0.0.1::8080}, stopped with {@code docker stop};</li>
 *   <li>else {@code npx --yes jiguang-sandbox} (or {@code JIGUANG_SANDBOX_COMMAND}, split on spaces)
 *       with {@code --port 0 --db :memory:}, its address read from the line it prints when it
 *       listens, killed at the end (and when the JVM exits).</li>
 * </ol>
 * Each is ready once {@code GET /_sandbox/ready} answers 200. A sandbox whose major.minor differs
 * from the client's {@link Version#CLIENT} is used with a warning.
 */
public final class SandboxServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern LISTENING = Pattern.compile("jiguang-sandbox listening on (https?://[^\\s\"]+)");
    private static final HttpClient HTTP = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5)).version(HttpClient.Version.HTTP_1_1).build();

    private final String url;
    private final String origin;
    private final Process process;
    private final String container;
    private final Thread shutdownHook;
    private final Deque<String> output;

    private SandboxServer(String url, String origin, Process process, String container, Deque<String> output) {
        this.url = url.replaceAll("/+$", "");
        this.origin = origin;
        this.process = process;
        this.container = container;
        this.output = output;
        if (process != null || container != null) {
            this.shutdownHook = new Thread(this::stop, "jiguang-sandbox stop");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } else {
            this.shutdownHook = null;
        }
    }

    /** The sandbox the environment says, found or started as the class comment tells. */
    public static SandboxServer start() {
        return start(System.getenv());
    }

    /**
     * As {@link #start()}, with the settings ({@code JIGUANG_SANDBOX_URL}, {@code _IMAGE}, {@code
     * _COMMAND}) read from {@code env} instead of the process's environment.
     */
    public static SandboxServer start(Map<String, String> env) {
        String given = env.get("JIGUANG_SANDBOX_URL");
        SandboxServer server;
        if (given != null && !given.isBlank()) {
            server = new SandboxServer(given.trim(), "JIGUANG_SANDBOX_URL", null, null, null).ready();
        } else {
            String image = dockerImage(env);
            server = image != null ? runContainer(image) : runCommand(env);
        }
        server.warnOnVersion();
        return server;
    }

    /** The sandbox's base URL: JSMS {@code /v1}, JPush {@code /v3}, the control plane {@code /_sandbox}. */
    public String url() {
        return url;
    }

    /** Where it came from: JIGUANG_SANDBOX_URL, the image it runs, or the command that runs it. */
    public String origin() {
        return origin;
    }

    /** A client of a new app of its own on this sandbox. */
    public SandboxClient createApp() {
        return SandboxClient.createApp(url);
    }

    /** Stops what it started (nothing for JIGUANG_SANDBOX_URL). */
    @Override
    public void close() {
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException exiting) {
                // the JVM is exiting: the hook runs (or ran) stop() itself
            }
        }
        stop();
    }

    private synchronized void stop() {
        if (process != null && process.isAlive()) {
            // npx runs the server as its child: stop the whole tree, gently first
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                }
            } catch (InterruptedException err) {
                Thread.currentThread().interrupt();
            }
        }
        if (container != null) run(Duration.ofSeconds(30), "docker", "stop", container);
    }

    @Override
    public String toString() {
        return "the sandbox at " + url + " (" + origin + ")";
    }

    // --- Docker ------------------------------------------------------------------------------

    private static String dockerImage(Map<String, String> env) {
        Result info = run(Duration.ofSeconds(15), "docker", "info");
        if (info == null || info.exit != 0) return null;
        String wanted = env.get("JIGUANG_SANDBOX_IMAGE");
        List<String> candidates = wanted != null && !wanted.isBlank()
            ? List.of(wanted.trim())
            : List.of("jiguang-sandbox:" + Version.CLIENT, "jiguang-sandbox:latest");
        for (String image : candidates) {
            Result inspect = run(Duration.ofSeconds(15), "docker", "image", "inspect", image);
            if (inspect != null && inspect.exit == 0) return image;
        }
        return null;
    }

    private static SandboxServer runContainer(String image) {
        Result started = run(Duration.ofSeconds(60), "docker", "run", "-d", "--rm", "-p", "127.0.0.1::8080", image);
        if (started == null || started.exit != 0)
            throw new IllegalStateException("docker run " + image + " failed: " + (started == null ? "no answer" : started.output));
        String id = started.output.trim();
        Result port = run(Duration.ofSeconds(15), "docker", "port", id, "8080");
        if (port == null || port.exit != 0 || port.output.isBlank()) {
            run(Duration.ofSeconds(30), "docker", "stop", id);
            throw new IllegalStateException("docker port " + id + " 8080 failed: " + (port == null ? "no answer" : port.output));
        }
        // "127.0.0.1:49153" (one line per address family)
        String address = port.output.trim().split("\\R")[0].trim();
        return new SandboxServer("http://" + address, "docker image " + image, null, id, null).ready();
    }

    // --- a child process ---------------------------------------------------------------------

    private static SandboxServer runCommand(Map<String, String> env) {
        String given = env.get("JIGUANG_SANDBOX_COMMAND");
        List<String> command = new ArrayList<>(Arrays.asList(
            (given != null && !given.isBlank() ? given.trim() : "npx --yes jiguang-sandbox").split("\\s+")));
        command.addAll(List.of("--port", "0", "--db", ":memory:"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // the line it prints when it listens is written whatever the level: the rest is not needed
        if (System.getenv("LOG_LEVEL") == null) builder.environment().put("LOG_LEVEL", "warn");
        Process process;
        try {
            process = builder.start();
        } catch (IOException err) {
            throw new IllegalStateException("could not start the sandbox with `" + String.join(" ", command)
                + "` (set JIGUANG_SANDBOX_URL to use a running one, or JIGUANG_SANDBOX_COMMAND): " + err.getMessage(), err);
        }
        try {
            process.getOutputStream().close(); // it reads nothing from stdin
        } catch (IOException ignored) {
            // already closed
        }
        Deque<String> output = new ArrayDeque<>();
        CompletableFuture<String> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> drain(process, output, listening), "jiguang-sandbox output");
        reader.setDaemon(true);
        reader.start();
        String shown = String.join(" ", command);
        String url;
        try {
            url = listening.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException err) {
            throw new IllegalStateException("`" + shown + "` " + err.getCause().getMessage()
                + " before it listened; its output:\n" + lastLines(output), err.getCause());
        } catch (TimeoutException err) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("`" + shown + "` did not say where it listens within "
                + START_TIMEOUT.toSeconds() + " s; its output:\n" + lastLines(output), err);
        } catch (InterruptedException err) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while starting the sandbox", err);
        }
        return new SandboxServer(url, "`" + shown + "`", process, null, output).ready();
    }

    /** Reads the child's output to its end (so it never blocks on a full pipe), keeping the last lines. */
    private static void drain(Process process, Deque<String> output, CompletableFuture<String> listening) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                synchronized (output) {
                    output.addLast(line);
                    if (output.size() > 50) output.removeFirst();
                }
                if (!listening.isDone()) {
                    Matcher found = LISTENING.matcher(line);
                    if (found.find()) listening.complete(found.group(1));
                }
            }
        } catch (IOException closed) {
            // the process ended
        }
        listening.completeExceptionally(new IllegalStateException("exited with " + waitExit(process)));
    }

    private static String waitExit(Process process) {
        try {
            return "status " + process.waitFor();
        } catch (InterruptedException err) {
            Thread.currentThread().interrupt();
            return "an unknown status";
        }
    }

    private static String lastLines(Deque<String> output) {
        synchronized (output) {
            return output.isEmpty() ? "(nothing)" : String.join("\n", output);
        }
    }

    // --- readiness and version ---------------------------------------------------------------

    /** This sandbox once it answers ready; what it started is stopped when it does not. */
    private SandboxServer ready() {
        try {
            awaitReady(START_TIMEOUT);
            return this;
        } catch (RuntimeException err) {
            close();
            throw err;
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (process != null && !process.isAlive())
                throw new IllegalStateException("the sandbox (" + origin + ") exited with status "
                    + process.exitValue() + "; its output:\n" + lastLines(output));
            try {
                HttpResponse<String> answer = HTTP.send(
                    HttpRequest.newBuilder(URI.create(url + "/_sandbox/ready")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) return;
                last = "HTTP " + answer.statusCode() + " " + answer.body();
            } catch (IOException err) {
                last = err.toString();
            } catch (InterruptedException err) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + url, err);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException err) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + url, err);
            }
        }
        throw new IllegalStateException(url + "/_sandbox/ready did not answer 200 within " + timeout.toSeconds() + " s: " + last);
    }

    private void warnOnVersion() {
        try {
            HttpResponse<String> answer = HTTP.send(
                HttpRequest.newBuilder(URI.create(url + "/_sandbox/info")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
            String version = Json.parseObject(answer.body()).getString("version");
            if (version != null && !Version.majorMinor(version).equals(Version.majorMinor(Version.CLIENT)))
                System.err.println("jiguang-sandbox: the sandbox at " + url + " is version " + version
                    + ", this client " + Version.CLIENT + ": calls may not mean the same");
        } catch (IOException | RuntimeException err) {
            System.err.println("jiguang-sandbox: could not read " + url + "/_sandbox/info: " + err);
        } catch (InterruptedException err) {
            Thread.currentThread().interrupt();
        }
    }

    // --- running a command -------------------------------------------------------------------

    private static final class Result {
        final int exit;
        final String output;

        Result(int exit, String output) {
            this.exit = exit;
            this.output = output;
        }
    }

    /** Runs a short command; null when it cannot be started (no docker) or did not end in time. */
    private static Result run(Duration timeout, String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            CompletableFuture<String> text = CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException err) {
                    return "";
                }
            });
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return null;
            }
            return new Result(process.exitValue(), text.get(5, TimeUnit.SECONDS));
        } catch (IOException | TimeoutException | java.util.concurrent.ExecutionException err) {
            return null;
        } catch (InterruptedException err) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
