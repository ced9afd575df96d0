<?php
// docs/sdk-setup.md's PHP snippets (written beside this file by test/sdk-setup/sdk-setup.test.ts,
// as the page shows them), each run with its own app in a network where the vendor's hostnames are
// the sandbox. What the SDK returns is checked here; what the sandbox received, by the test that
// runs this one.
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/stand-ins/JPush.php';
require_once __DIR__ . '/stand-ins/JSMS.php';
require_once __DIR__ . '/jpush_snippet.php';
require_once __DIR__ . '/jsms_snippet.php';

final class SdkSetupTest extends TestCase
{
    private static function report(string $msgId): void
    {
        file_put_contents(getenv('SDK_SETUP_RESULT'), json_encode(['msg_id' => $msgId]));
    }

    public function testJpushApiPhpClient(): void
    {
        $result = push_through_the_sandbox(getenv('JIGUANG_APP_KEY'), getenv('JIGUANG_MASTER_SECRET'));
        $this->assertSame(200, $result['http_code']);
        $this->assertMatchesRegularExpression('/^\d+$/', $result['body']['msg_id']);
        // the answer's headers reach the caller: the push host's rate limit among them
        $this->assertArrayHasKey('x-rate-limit-limit', array_change_key_case($result['headers'], CASE_LOWER));
        self::report($result['body']['msg_id']);
    }

    public function testJsmsApiPhpClient(): void
    {
        $result = send_code_through_the_sandbox(getenv('JIGUANG_APP_KEY'), getenv('JIGUANG_MASTER_SECRET'));
        $this->assertIsArray($result, is_string($result) ? $result : '');
        $this->assertSame(200, $result['http_code']);
        $this->assertMatchesRegularExpression('/^\d+$/', $result['body']['msg_id']);
        self::report($result['body']['msg_id']);
    }
}
