<?php

declare(strict_types=1);

namespace JiguangSandbox;

/**
 * A running sandbox, and where it comes from, once per test run (the clients' contract, issue 27):
 *
 * 1. JIGUANG_SANDBOX_URL set: that sandbox (nothing started, nothing stopped);
 * 2. else a Docker CLI that answers `docker info` and the image JIGUANG_SANDBOX_IMAGE
 *    (jiguang-sandbox:<version>, else jiguang-sandbox:latest) present locally: a container on a free
 *    port of 127.0.0.1, stopped at the end;
 * 3. else a process: JIGUANG_SANDBOX_COMMAND (split on spaces), or `npx --yes jiguang-sandbox`, with
 *    `--port 0 --db :memory:`; its address read from its start line, stopped when PHP exits.
 */
final class Sandbox
{
    /** The client's version: the server's (package.json "version"). */
    public const VERSION = '0.1.0';
    public const DEFAULT_COMMAND = 'npx --yes jiguang-sandbox';

    private static ?self $shared = null;
    private static ?SandboxException $failure = null;
    /** @var (\Closure(): void)|null */
    private ?\Closure $stopper;

    private function __construct(
        public readonly string $url,
        /** How it came: "url", "docker <image>" or the command line started. */
        public readonly string $how,
        ?\Closure $stopper = null,
    ) {
        $this->stopper = $stopper;
    }

    /**
     * The sandbox of this test run: started on first use, stopped when PHP exits. A server of
     * another major.minor is warned about on standard error; one that could not start fails every
     * test that asks, with the same reason, without trying again.
     */
    public static function shared(): self
    {
        if (self::$shared === null) {
            if (self::$failure !== null) {
                throw self::$failure;
            }
            try {
                self::$shared = self::start();
            } catch (SandboxException $e) {
                throw self::$failure = $e;
            }
            $mismatch = self::$shared->versionMismatch();
            if ($mismatch !== null) {
                fwrite(STDERR, "jiguang-sandbox: warning: $mismatch\n");
            }
        }
        return self::$shared;
    }

    /**
     * The sandbox the environment names, or one started now (see the class's doc).
     *
     * @param array<string, string>|null $env the environment (getenv() when null)
     */
    public static function start(?array $env = null, float $startupTimeout = 120.0): self
    {
        $env ??= getenv();
        $url = $env['JIGUANG_SANDBOX_URL'] ?? '';
        if ($url !== '') {
            $sandbox = new self(rtrim($url, '/'), 'url');
            self::waitUntilReady($sandbox->url, $startupTimeout);
            return $sandbox;
        }
        $image = self::dockerImage($env);
        if ($image !== null) {
            return self::startContainer($image, $startupTimeout);
        }
        $command = preg_split('/ +/', trim(($env['JIGUANG_SANDBOX_COMMAND'] ?? '') ?: self::DEFAULT_COMMAND));
        return self::startProcess($command, $env, $startupTimeout);
    }

    /** Returns once GET /_sandbox/ready answers 200; $dead says why to give up early. */
    public static function waitUntilReady(string $url, float $timeout = 30.0, ?\Closure $dead = null): void
    {
        $deadline = microtime(true) + $timeout;
        $last = 'no answer';
        while (microtime(true) < $deadline) {
            $curl = curl_init("$url/_sandbox/ready");
            curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_PROXY => '', CURLOPT_TIMEOUT_MS => 2000]);
            $text = curl_exec($curl);
            $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
            $last = $text === false ? curl_error($curl) : "HTTP $status";
            curl_close($curl);
            if ($status === 200) {
                return;
            }
            $why = $dead === null ? null : $dead();
            if ($why !== null) {
                throw new SandboxException(0, null, $why);
            }
            usleep(100000);
        }
        throw new SandboxException(0, null, sprintf('%s/_sandbox/ready did not answer 200 within %g s: %s', $url, $timeout, $last));
    }

    /** @param list<string> $args */
    private static function run(array $args, ?string &$out = null): int
    {
        $process = @proc_open($args, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        if (!is_resource($process)) {
            return 127;
        }
        $out = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        return proc_close($process);
    }

    private static function dockerImage(array $env): ?string
    {
        if (self::run(['docker', 'info']) !== 0) {
            return null;
        }
        $wanted = $env['JIGUANG_SANDBOX_IMAGE'] ?? '';
        foreach ($wanted !== '' ? [$wanted] : ['jiguang-sandbox:' . self::VERSION, 'jiguang-sandbox:latest'] as $image) {
            if (self::run(['docker', 'image', 'inspect', $image]) === 0) {
                return $image;
            }
        }
        return null;
    }

    private static function startContainer(string $image, float $startupTimeout): self
    {
        if (self::run(['docker', 'run', '-d', '--rm', '-p', '127.0.0.1::8080', $image], $out) !== 0) {
            throw new SandboxException(0, null, "docker run $image failed");
        }
        $container = trim((string) $out);
        $stop = self::once(static function () use ($container): void {
            self::run(['docker', 'stop', $container]);
        });
        register_shutdown_function($stop);
        self::run(['docker', 'port', $container, '8080/tcp'], $port);
        $first = strtok(trim((string) $port), "\n");
        if ($first === false || !str_contains($first, ':')) {
            $stop();
            throw new SandboxException(0, null, "docker port $container 8080/tcp: no port published");
        }
        $sandbox = new self('http://127.0.0.1:' . substr($first, strrpos($first, ':') + 1), "docker $image", $stop);
        try {
            self::waitUntilReady($sandbox->url, $startupTimeout);
        } catch (SandboxException $e) {
            $sandbox->stop();
            throw $e;
        }
        return $sandbox;
    }

    /** @param list<string> $command */
    private static function startProcess(array $command, array $env, float $startupTimeout): self
    {
        $args = [...$command, '--port', '0', '--host', '127.0.0.1', '--db', ':memory:'];
        $line = implode(' ', $args);
        // Its output goes to a file, read for the start line: a pipe nobody drains would stall it.
        $log = tempnam(sys_get_temp_dir(), 'jiguang-sandbox-');
        // The start line is written whatever the level; each request's line is not needed here.
        $env += ['LOG_LEVEL' => 'warn'];
        // A session of its own (setsid), so that `npx` and the node it starts are stopped together.
        $group = function_exists('posix_kill') && is_executable('/usr/bin/setsid');
        $process = @proc_open(
            $group ? ['/usr/bin/setsid', ...$args] : $args,
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a']],
            $pipes,
            null,
            $env,
        );
        if (!is_resource($process)) {
            @unlink($log);
            throw new SandboxException(0, null, "could not start $line");
        }
        $pid = proc_get_status($process)['pid'];
        $exitCode = null;
        $running = static function () use ($process, &$exitCode): bool {
            $status = proc_get_status($process);
            if (!$status['running'] && $exitCode === null) {
                $exitCode = $status['exitcode'];  // reported once only
            }
            return $status['running'];
        };
        $stop = self::once(static function () use ($process, $pid, $group, $log, $running): void {
            if ($running()) {
                $group ? posix_kill(-$pid, 15) : proc_terminate($process, 15);
                $deadline = microtime(true) + 10;
                while ($running() && microtime(true) < $deadline) {
                    usleep(20000);
                }
                if ($running()) {
                    $group ? posix_kill(-$pid, 9) : proc_terminate($process, 9);
                }
            }
            proc_close($process);
            @unlink($log);
        });
        register_shutdown_function($stop);
        $output = static fn (): string => substr((string) @file_get_contents($log), -2000);
        $dead = static function () use ($running, &$exitCode, $line, $output): ?string {
            return $running() ? null : "$line exited with $exitCode before it was ready:\n" . $output();
        };

        $deadline = microtime(true) + $startupTimeout;
        while (true) {
            // The server's start line, whatever LOG_FORMAT: "jiguang-sandbox listening on http://127.0.0.1:41235 (version …"
            if (preg_match('~jiguang-sandbox listening on (https?://[^\s"()]+)~', (string) @file_get_contents($log), $found)) {
                break;
            }
            $why = $dead() ?? (microtime(true) > $deadline ? sprintf("%s printed no start line within %g s:\n%s", $line, $startupTimeout, $output()) : null);
            if ($why !== null) {
                $stop();  // which removes its output: $why holds what it said
                throw new SandboxException(0, null, $why);
            }
            usleep(50000);
        }
        $sandbox = new self($found[1], $line, $stop);
        try {
            self::waitUntilReady($sandbox->url, max(1.0, $deadline - microtime(true)), $dead);
        } catch (SandboxException $e) {
            $sandbox->stop();
            throw $e;
        }
        return $sandbox;
    }

    private static function once(\Closure $action): \Closure
    {
        $done = false;
        return static function () use ($action, &$done): void {
            if (!$done) {
                $done = true;
                $action();
            }
        };
    }

    /** Stops what start() started; nothing for a sandbox named by URL. */
    public function stop(): void
    {
        $stop = $this->stopper;
        $this->stopper = null;
        if ($stop !== null) {
            $stop();
        }
    }

    /** GET /_sandbox/info: name, version, settings that shape answers. */
    public function info(): array
    {
        $curl = curl_init("{$this->url}/_sandbox/info");
        curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_PROXY => '', CURLOPT_TIMEOUT => 30]);
        $text = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        if ($text === false || $status !== 200) {
            throw SandboxException::fromAnswer('GET', '/_sandbox/info', $status, (string) $text);
        }
        return json_decode((string) $text, true);
    }

    /** A warning's text when the server's major.minor is not this client's ($version), else null. */
    public function versionMismatch(string $version = self::VERSION): ?string
    {
        $server = (string) ($this->info()['version'] ?? '');
        $minor = static fn (string $v) => implode('.', array_slice(explode('.', $v), 0, 2));
        return $minor($server) === $minor($version)
            ? null
            : "the sandbox at {$this->url} is version $server, this client $version: calls may differ";
    }

    /** An app of its own: fresh random credentials, provisioned now. */
    public function newApp(): SandboxApp
    {
        return SandboxApp::create($this->url);
    }
}
