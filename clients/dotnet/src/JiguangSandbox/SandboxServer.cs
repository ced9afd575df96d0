using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net.Http;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;

namespace JiguangSandbox
{
    /// <summary>
    /// The sandbox of a test run, found or started once and stopped at its end (clients-contract
    /// "Where the sandbox comes from"):
    /// 1. <c>JIGUANG_SANDBOX_URL</c> set: that one (nothing started, nothing stopped);
    /// 2. else a Docker CLI that answers <c>docker info</c> and the image <c>JIGUANG_SANDBOX_IMAGE</c>
    ///    (<c>jiguang-sandbox:&lt;client version&gt;</c>, else <c>jiguang-sandbox:latest</c>) present
    ///    locally: <c>docker run -d --rm -p 127.0.0.1::8080</c>, stopped with <c>docker stop</c>;
    /// 3. else <c>npx --yes jiguang-sandbox</c> (or <c>JIGUANG_SANDBOX_COMMAND</c>, split on spaces)
    ///    with <c>--port 0 --db :memory:</c>, its address read from the line it prints when it listens,
    ///    stopped at the end (and when the process or its AppDomain ends).
    /// Each is ready once <c>GET /_sandbox/ready</c> answers 200. A sandbox whose major.minor differs
    /// from <see cref="Version.Client"/> is used with a warning.
    /// </summary>
    public sealed class SandboxServer : IDisposable
    {
        static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);
        static readonly Regex Listening = new Regex("jiguang-sandbox listening on (https?://[^\\s\"]+)");
        static readonly HttpClient Http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };

        static readonly object SharedLock = new object();
        static Lazy<SandboxServer> shared = NewShared();

        readonly Process process;
        readonly string container;
        readonly LinkedList<string> output;
        int stopped;

        SandboxServer(string url, string origin, Process process, string container, LinkedList<string> output)
        {
            Url = url.TrimEnd('/');
            Origin = origin;
            this.process = process;
            this.container = container;
            this.output = output;
            if (process != null || container != null)
            {
                // the run's end: a process (.NET) or an AppDomain (Mono's nunit-console) going away
                AppDomain.CurrentDomain.ProcessExit += (sender, args) => Dispose();
                AppDomain.CurrentDomain.DomainUnload += (sender, args) => Dispose();
            }
        }

        /// <summary>The sandbox's base URL: JSMS <c>/v1</c>, JPush <c>/v3</c>, the control plane <c>/_sandbox</c>.</summary>
        public string Url { get; private set; }

        /// <summary>Where it came from: JIGUANG_SANDBOX_URL, the image it runs, or the command that runs it.</summary>
        public string Origin { get; private set; }

        /// <summary>The run's sandbox, found or started on first use (the environment says how).</summary>
        public static SandboxServer Shared
        {
            get
            {
                Lazy<SandboxServer> current;
                lock (SharedLock) current = shared;
                return current.Value;
            }
        }

        /// <summary>Stops the run's sandbox if it was started (a <c>[SetUpFixture]</c>'s end: <see cref="SandboxRun"/>).</summary>
        public static void StopShared()
        {
            Lazy<SandboxServer> current;
            lock (SharedLock)
            {
                current = shared;
                shared = NewShared();
            }
            if (current.IsValueCreated) current.Value.Dispose();
        }

        static Lazy<SandboxServer> NewShared()
        {
            return new Lazy<SandboxServer>(() => Start(), LazyThreadSafetyMode.ExecutionAndPublication);
        }

        /// <summary>The sandbox the environment says, found or started as the class comment tells.</summary>
        public static SandboxServer Start()
        {
            return Start(name => Environment.GetEnvironmentVariable(name));
        }

        /// <summary>
        /// As <see cref="Start()"/>, with the settings (<c>JIGUANG_SANDBOX_URL</c>, <c>_IMAGE</c>,
        /// <c>_COMMAND</c>) read from <paramref name="setting"/> instead of the environment.
        /// </summary>
        public static SandboxServer Start(Func<string, string> setting)
        {
            var given = (setting("JIGUANG_SANDBOX_URL") ?? "").Trim();
            SandboxServer server;
            if (given.Length > 0)
            {
                server = new SandboxServer(given, "JIGUANG_SANDBOX_URL", null, null, null).Ready();
            }
            else
            {
                var image = DockerImage((setting("JIGUANG_SANDBOX_IMAGE") ?? "").Trim());
                server = image != null ? RunContainer(image) : RunCommand((setting("JIGUANG_SANDBOX_COMMAND") ?? "").Trim());
            }
            server.WarnOnVersion();
            return server;
        }

        /// <summary>A client of a new app of its own on this sandbox.</summary>
        public Task<SandboxClient> CreateAppAsync() { return SandboxClient.CreateAppAsync(Url); }

        /// <summary>Stops what it started (nothing for JIGUANG_SANDBOX_URL).</summary>
        public void Dispose()
        {
            if (Interlocked.Exchange(ref stopped, 1) == 1) return;
            if (process != null) StopProcess();
            if (container != null) Run(TimeSpan.FromSeconds(30), "docker", "stop", container);
        }

        public override string ToString() { return "the sandbox at " + Url + " (" + Origin + ")"; }

        void StopProcess()
        {
            try
            {
                if (process.HasExited) return;
                // SIGTERM lets it close its database; Process.Kill is SIGKILL on Unix
                var unix = Environment.OSVersion.Platform == PlatformID.Unix || Environment.OSVersion.Platform == PlatformID.MacOSX;
                if (!unix || Run(TimeSpan.FromSeconds(5), "kill", "-TERM", process.Id.ToString()) == null) process.Kill();
                if (!process.WaitForExit(10000)) process.Kill();
            }
            catch (InvalidOperationException)
            {
                // it had already ended
            }
        }

        // --- Docker ---------------------------------------------------------------------------

        static string DockerImage(string wanted)
        {
            var info = Run(TimeSpan.FromSeconds(15), "docker", "info");
            if (info == null || info.Item1 != 0) return null;
            var candidates = wanted.Length > 0 ? new[] { wanted } : new[] { "jiguang-sandbox:" + Version.Client, "jiguang-sandbox:latest" };
            foreach (var image in candidates)
            {
                var inspect = Run(TimeSpan.FromSeconds(15), "docker", "image", "inspect", image);
                if (inspect != null && inspect.Item1 == 0) return image;
            }
            return null;
        }

        static SandboxServer RunContainer(string image)
        {
            var started = Run(TimeSpan.FromSeconds(60), "docker", "run", "-d", "--rm", "-p", "127.0.0.1::8080", image);
            if (started == null || started.Item1 != 0)
                throw new InvalidOperationException("docker run " + image + " failed: " + (started == null ? "no answer" : started.Item2));
            var id = started.Item2.Trim();
            var port = Run(TimeSpan.FromSeconds(15), "docker", "port", id, "8080");
            if (port == null || port.Item1 != 0 || port.Item2.Trim().Length == 0)
            {
                Run(TimeSpan.FromSeconds(30), "docker", "stop", id);
                throw new InvalidOperationException("docker port " + id + " 8080 failed: " + (port == null ? "no answer" : port.Item2));
            }
            // "127.0.0.1:49153", one line per address family
            var address = port.Item2.Trim().Split('\n')[0].Trim();
            return new SandboxServer("http://" + address, "docker image " + image, null, id, null).Ready();
        }

        // --- a child process ----------------------------------------------------------------

        static SandboxServer RunCommand(string given)
        {
            var words = (given.Length > 0 ? given : "npx --yes jiguang-sandbox").Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries)
                .Concat(new[] { "--port", "0", "--db", ":memory:" }).ToArray();
            var shown = string.Join(" ", words);
            var start = new ProcessStartInfo(words[0], string.Join(" ", words.Skip(1).Select(Quote)))
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                RedirectStandardInput = true,
                CreateNoWindow = true,
            };
            // the line it prints when it listens is written whatever the level: the rest is not needed
            if (Environment.GetEnvironmentVariable("LOG_LEVEL") == null) start.EnvironmentVariables["LOG_LEVEL"] = "warn";
            var output = new LinkedList<string>();
            var listening = new TaskCompletionSource<string>();
            var process = new Process { StartInfo = start, EnableRaisingEvents = true };
            DataReceivedEventHandler read = (sender, line) =>
            {
                if (line.Data == null) return;
                lock (output)
                {
                    output.AddLast(line.Data);
                    if (output.Count > 50) output.RemoveFirst();
                }
                var found = Listening.Match(line.Data);
                if (found.Success) listening.TrySetResult(found.Groups[1].Value);
            };
            process.OutputDataReceived += read;
            process.ErrorDataReceived += read;
            try
            {
                process.Start();
            }
            catch (Exception err)
            {
                throw new InvalidOperationException("could not start the sandbox with `" + shown
                    + "` (set JIGUANG_SANDBOX_URL to use a running one, or JIGUANG_SANDBOX_COMMAND): " + err.Message, err);
            }
            process.StandardInput.Close(); // it reads nothing from stdin
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            var server = new SandboxServer("http://127.0.0.1", "`" + shown + "`", process, null, output);
            var exited = Task.Run(() => process.WaitForExit());
            var first = Task.WaitAny(new Task[] { listening.Task, exited }, StartTimeout);
            if (first != 0)
            {
                server.Dispose();
                process.WaitForExit(2000); // the rest of its output
                var why = first == 1 ? "exited with status " + process.ExitCode + " before it listened" : "did not say where it listens within " + StartTimeout.TotalSeconds + " s";
                throw new InvalidOperationException("`" + shown + "` " + why + "; its output:\n" + LastLines(output));
            }
            server.Url = listening.Task.Result.TrimEnd('/');
            return server.Ready();
        }

        static string Quote(string argument)
        {
            return argument.Length > 0 && argument.All(c => !char.IsWhiteSpace(c) && c != '"' && c != '\'' && c != '\\')
                ? argument
                : "\"" + argument.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\"";
        }

        static string LastLines(LinkedList<string> output)
        {
            if (output == null) return "(nothing)";
            lock (output) return output.Count == 0 ? "(nothing)" : string.Join("\n", output);
        }

        // --- readiness and version ----------------------------------------------------------

        /// <summary>This sandbox once it answers ready; what it started is stopped when it does not.</summary>
        SandboxServer Ready()
        {
            try
            {
                AwaitReady();
                return this;
            }
            catch
            {
                Dispose();
                throw;
            }
        }

        void AwaitReady()
        {
            var deadline = DateTime.UtcNow + StartTimeout;
            var last = "no answer";
            while (DateTime.UtcNow < deadline)
            {
                if (process != null && process.HasExited)
                    throw new InvalidOperationException("the sandbox (" + Origin + ") exited with status " + process.ExitCode + "; its output:\n" + LastLines(output));
                try
                {
                    using (var answer = Http.GetAsync(Url + "/_sandbox/ready").GetAwaiter().GetResult())
                    {
                        if ((int)answer.StatusCode == 200) return;
                        last = "HTTP " + (int)answer.StatusCode + " " + answer.Content.ReadAsStringAsync().GetAwaiter().GetResult();
                    }
                }
                catch (Exception err)
                {
                    if (!(err is HttpRequestException || err is TaskCanceledException)) throw;
                    last = err.Message;
                }
                Thread.Sleep(100);
            }
            throw new InvalidOperationException(Url + "/_sandbox/ready did not answer 200 within " + StartTimeout.TotalSeconds + " s: " + last);
        }

        void WarnOnVersion()
        {
            try
            {
                var info = Json.ParseObject(Http.GetStringAsync(Url + "/_sandbox/info").GetAwaiter().GetResult());
                var version = info.GetString("version");
                if (version != null && Version.MajorMinor(version) != Version.MajorMinor(Version.Client))
                    Console.Error.WriteLine("jiguang-sandbox: the sandbox at " + Url + " is version " + version
                        + ", this client " + Version.Client + ": calls may not mean the same");
            }
            catch (Exception err)
            {
                Console.Error.WriteLine("jiguang-sandbox: could not read " + Url + "/_sandbox/info: " + err.Message);
            }
        }

        // --- running a command --------------------------------------------------------------

        /// <summary>Runs a short command: its exit status and output, or null when it cannot start or did not end in time.</summary>
        static Tuple<int, string> Run(TimeSpan timeout, string file, params string[] arguments)
        {
            try
            {
                using (var process = Process.Start(new ProcessStartInfo(file, string.Join(" ", arguments.Select(Quote)))
                {
                    UseShellExecute = false,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                    CreateNoWindow = true,
                }))
                {
                    var stdout = process.StandardOutput.ReadToEndAsync();
                    var stderr = process.StandardError.ReadToEndAsync();
                    if (!process.WaitForExit((int)timeout.TotalMilliseconds))
                    {
                        process.Kill();
                        return null;
                    }
                    return Tuple.Create(process.ExitCode, stdout.Result + stderr.Result);
                }
            }
            catch (Exception err)
            {
                if (err is System.ComponentModel.Win32Exception || err is InvalidOperationException) return null;
                throw;
            }
        }
    }
}
