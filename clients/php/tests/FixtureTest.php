<?php

declare(strict_types=1);

namespace JiguangSandbox\Tests;

use JiguangSandbox\Sandbox;
use JiguangSandbox\SandboxApp;
use JiguangSandbox\SandboxException;
use JiguangSandbox\UsesJiguangSandbox;
use PHPUnit\Framework\TestCase;

/**
 * The trait seen from a test suite: child PHPUnit runs (of a suite written here) against the same
 * sandbox, and a sandbox started for a run.
 */
final class FixtureTest extends TestCase
{
    use UsesJiguangSandbox;

    private const SUITE = <<<'PHP'
        <?php

        use JiguangSandbox\SandboxTestCase;

        final class SignUpTest extends SandboxTestCase
        {
            public function testSignUpTextsACode(): void
            {
                file_put_contents('failed.json', json_encode([$this->sandbox->appKey, $this->sandbox->masterSecret]));
                $this->sandbox->armFault(['path' => '/v1/codes', 'code' => 50019]);
                $this->assertCount(1, $this->sandbox->messages(['mobile' => '13800138000']), 'no code was texted');
            }

            public function testPasses(): void
            {
                file_put_contents('passed.json', json_encode([$this->sandbox->appKey, $this->sandbox->masterSecret]));
                $this->assertGreaterThan(0, $this->sandbox->advanceClock(1000)['offset_ms']);
            }

            public function testSkipped(): void
            {
                $this->markTestSkipped('not today');
            }
        }
        PHP;

    private string $dir;

    /** @before */
    #[\PHPUnit\Framework\Attributes\Before]
    public function makeFolder(): void
    {
        $this->dir = sys_get_temp_dir() . '/jiguang-sandbox-php-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
    }

    /** @after */
    #[\PHPUnit\Framework\Attributes\After]
    public function removeFolder(): void
    {
        exec('rm -rf ' . escapeshellarg($this->dir));
    }

    /**
     * PHPUnit (the one running this test) on a file of $this->dir, in that folder.
     *
     * @param array<string, string|null> $env changes to this process's environment (null: unset)
     * @return array{0: int, 1: string} its exit code and output (standard error included)
     */
    private function phpunit(string $file, array $env = []): array
    {
        $environment = array_filter(array_merge(getenv(), $env), static fn ($v) => $v !== null);
        $process = proc_open(
            [PHP_BINARY, realpath($_SERVER['argv'][0]) ?: 'phpunit', '--no-configuration', '--bootstrap', __DIR__ . '/bootstrap.php', $file],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]],
            $pipes,
            $this->dir,
            $environment,
        );
        $output = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        return [proc_close($process), $output];
    }

    private function credentials(string $name): array
    {
        return json_decode((string) file_get_contents("{$this->dir}/$name"), true);
    }

    public function testAFailingTestExportsItsAppAndPrintsItsLink(): void
    {
        file_put_contents("{$this->dir}/SignUpTest.php", self::SUITE);
        $url = Sandbox::shared()->url;
        [$exit, $output] = $this->phpunit('SignUpTest.php', ['JIGUANG_SANDBOX_URL' => $url, 'JIGUANG_SANDBOX_REPORTS' => null]);
        $this->assertSame(1, $exit, $output);
        $this->assertStringContainsString('Tests: 3, Assertions: 2, Failures: 1, Skipped: 1.', $output);
        [$key, $secret] = $this->credentials('failed.json');
        $this->assertStringContainsString("web UI: $url/_sandbox/ui/?app=$key", $output);
        $exported = "{$this->dir}/build/jiguang-sandbox/SignUpTest__testSignUpTextsACode.json";
        $this->assertStringContainsString("app $key exported to $exported", $output);
        $document = json_decode((string) file_get_contents($exported), true);
        $this->assertSame(['jiguang-sandbox/app', $key], [$document['format'], $document['app_key']]);
        $this->assertSame([['/v1/codes', 50019]], array_map(static fn ($f) => [$f['path'], $f['code']], $document['faults']));
        // The failed test's app is kept, so that the link opens it; the passed test's is removed.
        $this->assertSame([50019], array_column((new SandboxApp($url, $key, $secret))->faults(), 'code'));
        [$passedKey, $passedSecret] = $this->credentials('passed.json');
        $this->assertSame(0, (new SandboxApp($url, $passedKey, $passedSecret))->clock()['offset_ms']);  // a new app
        // Nothing for the skipped test.
        $this->assertSame(['SignUpTest__testSignUpTextsACode.json'], array_values(array_diff(scandir("{$this->dir}/build/jiguang-sandbox"), ['.', '..'])));
    }

    public function testTheTraitExportsEveryAppOfAFailedTestWhereJiguangSandboxReportsSays(): void
    {
        file_put_contents("{$this->dir}/TwoAppsTest.php", <<<'PHP'
            <?php

            final class TwoAppsTest extends PHPUnit\Framework\TestCase
            {
                use JiguangSandbox\UsesJiguangSandbox;

                /** @dataProvider mobiles */
                #[PHPUnit\Framework\Attributes\DataProvider('mobiles')]
                public function testTwoApps(string $mobile): void
                {
                    $other = $this->newSandboxApp();
                    $this->assertSame($other->appKey, $this->sandbox->appKey, $mobile);
                }

                public static function mobiles(): array
                {
                    return ['first' => ['13800138000']];
                }
            }
            PHP);
        [$exit, $output] = $this->phpunit('TwoAppsTest.php', [
            'JIGUANG_SANDBOX_URL' => Sandbox::shared()->url,
            'JIGUANG_SANDBOX_REPORTS' => "{$this->dir}/kept",
        ]);
        $this->assertSame(1, $exit, $output);
        $files = array_values(array_diff(scandir("{$this->dir}/kept"), ['.', '..']));
        $this->assertSame(['TwoAppsTest__testTwoApps_with_data_set_first-1.json', 'TwoAppsTest__testTwoApps_with_data_set_first-2.json'], $files);
        $this->assertSame(2, preg_match_all('~web UI: \S+/_sandbox/ui/\?app=[0-9a-f]{24}~', $output));
    }

    public function testASandboxStartedForTheRunIsStoppedAtItsEnd(): void
    {
        $command = getenv('JIGUANG_SANDBOX_COMMAND') ?: 'node ' . dirname(__DIR__, 3) . '/dist/server.js';
        file_put_contents("{$this->dir}/StartedTest.php", <<<'PHP'
            <?php

            final class StartedTest extends JiguangSandbox\SandboxTestCase
            {
                public function testStarted(): void
                {
                    $sandbox = JiguangSandbox\Sandbox::shared();
                    file_put_contents('sandbox.json', json_encode([$sandbox->url, $sandbox->how]));
                    $this->assertSame($this->sandbox->appKey, $this->sandbox->app()['app_key']);
                }
            }
            PHP);
        [$exit, $output] = $this->phpunit('StartedTest.php', [
            'JIGUANG_SANDBOX_URL' => null,
            'JIGUANG_SANDBOX_COMMAND' => $command,
            // the process, even where Docker has an image
            'JIGUANG_SANDBOX_IMAGE' => 'jiguang-sandbox:no-such-image-for-this-test',
        ]);
        $this->assertSame(0, $exit, $output);
        [$url, $how] = $this->credentials('sandbox.json');
        $this->assertSame("$command --port 0 --host 127.0.0.1 --db :memory:", $how);
        $parts = parse_url($url);
        $socket = @fsockopen($parts['host'], $parts['port'], $errno, $error, 5);
        $this->assertFalse($socket, "$url still answers after the run");
    }

    public function testASandboxThatCannotStartSaysWhy(): void
    {
        file_put_contents("{$this->dir}/broken.php", "<?php echo 'boom: ', implode(' ', array_slice(\$argv, 1)), \"\\n\"; exit(3);\n");
        try {
            Sandbox::start([
                'JIGUANG_SANDBOX_COMMAND' => PHP_BINARY . " {$this->dir}/broken.php",
                'JIGUANG_SANDBOX_IMAGE' => 'jiguang-sandbox:no-such-image-for-this-test',
                'PATH' => (string) getenv('PATH'),
            ], 30);
            $this->fail('a command that exits started a sandbox');
        } catch (SandboxException $e) {
            $this->assertStringContainsString('exited with 3 before it was ready', $e->getMessage());
            $this->assertStringContainsString('boom: --port 0 --host 127.0.0.1 --db :memory:', $e->getMessage());
        }
    }

    public function testAServerOfAnotherMajorMinorIsWarnedAbout(): void
    {
        $sandbox = Sandbox::shared();
        $this->assertNull($sandbox->versionMismatch());
        $server = $sandbox->info()['version'];
        $this->assertSame(
            "the sandbox at {$sandbox->url} is version $server, this client 9.9.0: calls may differ",
            $sandbox->versionMismatch('9.9.0'),
        );
    }

    public function testComposerJsonAutoloadsTheSourcesTheTestsUse(): void
    {
        $composer = json_decode((string) file_get_contents(dirname(__DIR__) . '/composer.json'), true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame(['JiguangSandbox\\' => 'src/'], $composer['autoload']['psr-4']);
        $this->assertSame(Sandbox::VERSION, json_decode((string) file_get_contents(dirname(__DIR__, 3) . '/package.json'), true)['version']);
    }
}
