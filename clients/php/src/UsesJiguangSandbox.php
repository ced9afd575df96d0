<?php

declare(strict_types=1);

namespace JiguangSandbox;

use PHPUnit\Framework\Attributes\After;
use PHPUnit\Framework\Attributes\Before;

/**
 * For a PHPUnit TestCase (9.6, 10 and later): each test gets an app of its own, `$this->sandbox`,
 * on the test run's sandbox (Sandbox::shared(): JIGUANG_SANDBOX_URL's, or one started for the run).
 * After a test that passed, its apps are removed; when it fails, each app's document is exported to
 * build/jiguang-sandbox/ (or JIGUANG_SANDBOX_REPORTS), named after the test, and the link that opens
 * the app in the web UI is printed: the apps are kept, so that the link works.
 *
 * The hooks are found by their annotations (PHPUnit 9) or attributes (10 and later), so a test's own
 * setUp()/tearDown() need not call them. The failure hook is onNotSuccessfulTest(), declared
 * `never` (PHP 8.1), which is what PHPUnit 10 declares and a valid narrowing of PHPUnit 9's `void`.
 */
trait UsesJiguangSandbox
{
    /** The test's own app: credentials, base URLs for the official SDKs, the control plane. */
    protected SandboxApp $sandbox;

    /** @var list<SandboxApp> every app made for the running test */
    private array $jiguangSandboxApps = [];

    /** @before */
    #[Before]
    public function setUpJiguangSandbox(): void
    {
        $this->jiguangSandboxApps = [];
        $this->sandbox = $this->newSandboxApp();
    }

    /** Another app for the same test (exported too if the test fails). */
    protected function newSandboxApp(): SandboxApp
    {
        $app = Sandbox::shared()->newApp();
        $this->jiguangSandboxApps[] = $app;
        return $app;
    }

    /** @after */
    #[After]
    public function tearDownJiguangSandbox(): void
    {
        if ($this->jiguangSandboxTestFailed()) {
            return;  // kept for onNotSuccessfulTest(), which PHPUnit calls after this
        }
        foreach ($this->jiguangSandboxApps as $app) {
            try {
                $app->deleteApp();
            } catch (SandboxException) {
                // removed by the test itself, or the sandbox is gone: nothing to keep
            }
        }
        $this->jiguangSandboxApps = [];
    }

    protected function onNotSuccessfulTest(\Throwable $t): never
    {
        if (!$t instanceof \PHPUnit\Framework\SkippedTest && !$t instanceof \PHPUnit\Framework\IncompleteTest) {
            $this->keepJiguangSandboxApps();
        }
        parent::onNotSuccessfulTest($t);
        throw $t;  // PHPUnit's own throws it already
    }

    /**
     * Where a failed test's app documents go: JIGUANG_SANDBOX_REPORTS, else build/jiguang-sandbox/
     * under the folder PHPUnit runs in.
     */
    public static function jiguangSandboxReports(): string
    {
        $given = getenv('JIGUANG_SANDBOX_REPORTS');
        return is_string($given) && $given !== '' ? rtrim($given, '/') : getcwd() . '/build/jiguang-sandbox';
    }

    private function keepJiguangSandboxApps(): void
    {
        $apps = $this->jiguangSandboxApps;
        $this->jiguangSandboxApps = [];
        if ($apps === []) {
            return;
        }
        $folder = self::jiguangSandboxReports();
        // PHPUnit 10 and later: nameWithDataSet(); 9: getName(true).
        $test = method_exists($this, 'nameWithDataSet') ? $this->nameWithDataSet() : $this->getName(true);
        $name = trim((string) preg_replace('/[^A-Za-z0-9._-]+/', '_', static::class . '__' . $test), '_');
        $lines = [];
        foreach ($apps as $index => $app) {
            $path = $folder . '/' . substr($name, 0, 200) . (count($apps) > 1 ? '-' . ($index + 1) : '') . '.json';
            try {
                $document = $app->exportAppJson();
                if (!is_dir($folder) && !@mkdir($folder, 0777, true) && !is_dir($folder)) {
                    throw new \RuntimeException("cannot make $folder");
                }
                if (@file_put_contents($path, $document) === false) {
                    throw new \RuntimeException("cannot write $path");
                }
                $lines[] = "app {$app->appKey} exported to $path";
            } catch (\RuntimeException $e) {
                $lines[] = "app {$app->appKey} could not be exported: {$e->getMessage()}";
            }
            $lines[] = "web UI: {$app->uiUrl}";
        }
        // Standard error: PHPUnit neither captures it as the test's output nor holds it back.
        fwrite(STDERR, "\njiguang-sandbox, " . static::class . "::$test failed:\n  " . implode("\n  ", $lines) . "\n");
    }

    private function jiguangSandboxTestFailed(): bool
    {
        if (method_exists($this, 'status')) {  // PHPUnit 10 and later
            $status = $this->status();
            return $status->isFailure() || $status->isError();
        }
        return $this->hasFailed();  // PHPUnit 9
    }
}
