<?php

declare(strict_types=1);

namespace JiguangSandbox\Tests;

use JiguangSandbox\SandboxTestCase;

/**
 * The base URLs used the way the official PHP SDKs use them, with the requests they make.
 *
 * The SDKs are not dependencies here (no Packagist): each request below sets curl up as the SDK's
 * source does, read from
 * - jpush/jsms-api-php-client, src/JSMS.php (1.0.9): `const URL = 'https://api.sms.jpush.cn/v1/'`,
 *   in whose place these requests use smsBaseUrl . '/v1/'; `request()`:
 *   CURLOPT_CUSTOMREQUEST, CURLAUTH_BASIC, user agent JSMS-API-PHP-CLIENT, headers
 *   `Connection: Keep-Alive` and `Content-Type: application/json` (on every method), json_encode'd
 *   body; `sendBatchMessage()` keys recipients by mobile, so PHP makes each mobile a JSON number;
 * - jpush/jpush-api-php-client, src/JPush/Http.php (3.6.5): CURLOPT_HTTP_VERSION 2.0 (over plain
 *   HTTP an h2c upgrade offer the server must answer in HTTP/1.1), CURLOPT_POST, user agent
 *   JPush-API-PHP-Client (src/JPush/Config.php), the same two headers; the push URL is
 *   Client::$zones['DEFAULT']['push'] . 'push', i.e. pushBaseUrl . '/v3/push'; PushPayload::build()
 *   adds options.sendno (random) and options.apns_production false.
 */
final class OfficialSdkWireTest extends SandboxTestCase
{
    /** @return array{0: int, 1: mixed} */
    private function sdk(string $url, string $method, ?array $body, string $userAgent, bool $h2c = false): array
    {
        $curl = curl_init();
        $options = [
            CURLOPT_URL => $url,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_PROXY => '',
            CURLOPT_USERAGENT => $userAgent,
            CURLOPT_HTTPAUTH => CURLAUTH_BASIC,
            CURLOPT_USERPWD => "{$this->sandbox->appKey}:{$this->sandbox->masterSecret}",
            CURLOPT_HTTPHEADER => ['Connection: Keep-Alive', 'Content-Type: application/json'],
        ];
        if ($h2c) {
            // JPush's Http::sendRequest(): HTTP/2 asked for, POST set as such, GET left as curl's own
            $options[CURLOPT_HTTP_VERSION] = CURL_HTTP_VERSION_2_0;
            if ($method === 'POST') {
                $options[CURLOPT_POST] = true;
            } elseif ($method !== 'GET') {
                $options[CURLOPT_CUSTOMREQUEST] = $method;
            }
        } else {
            $options[CURLOPT_CUSTOMREQUEST] = $method;  // JSMS::request(): every method this way
        }
        if ($body !== null) {
            $options[CURLOPT_POSTFIELDS] = json_encode($body);
        }
        curl_setopt_array($curl, $options);
        $text = (string) curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        return [$status, json_decode($text, true)];
    }

    public function testJsmsSendsAndChecksACodeAndSendsABatchThroughSmsBaseUrl(): void
    {
        $url = $this->sandbox->smsBaseUrl . '/v1/';  // JSMS::URL
        // sendCode($mobile, $temp_id): POST URL . 'codes' {"mobile":…,"temp_id":…}
        [$status, $sent] = $this->sdk($url . 'codes', 'POST', ['mobile' => '13800138000', 'temp_id' => 1], 'JSMS-API-PHP-CLIENT');
        $this->assertSame(200, $status);
        $code = $this->sandbox->latestCode('13800138000', 5);
        $this->assertSame($sent['msg_id'], $code['msg_id']);
        // checkCode($msg_id, $code): POST URL . 'codes/' . $msg_id . '/valid'
        $this->assertSame([200, ['is_valid' => true]], $this->sdk($url . "codes/{$sent['msg_id']}/valid", 'POST', ['code' => $code['code']], 'JSMS-API-PHP-CLIENT'));
        // sendBatchMessage(2, ['13800138001' => […]]): the numeric-string key is an int in PHP.
        $recipients = [];
        foreach (['13800138001' => ['order' => 'P1', 'days' => '1']] as $mobile => $para) {
            $recipients[] = ['mobile' => $mobile, 'temp_para' => $para];
        }
        $this->assertIsInt($recipients[0]['mobile']);
        [$status, $batch] = $this->sdk($url . 'messages/batch', 'POST', ['temp_id' => 2, 'recipients' => $recipients], 'JSMS-API-PHP-CLIENT');
        $this->assertSame([200, 1], [$status, $batch['success_count']]);
        $this->assertStringContainsString('P1', $this->sandbox->nextMessage(['mobile' => '13800138001'])['content']);
        // getAppBalance(): GET URL . 'accounts/app', still with Content-Type and no body
        [$status, $balance] = $this->sdk($url . 'accounts/app', 'GET', null, 'JSMS-API-PHP-CLIENT');
        $this->assertSame(200, $status);
        $this->assertArrayHasKey('app_balance', $balance);
        $this->assertSame('JSMS-API-PHP-CLIENT', $this->sandbox->nextRequest(['path' => '/v1/codes'])['user_agent']);
    }

    public function testJpushPushesThroughPushBaseUrlOfferingH2c(): void
    {
        $url = $this->sandbox->pushBaseUrl . '/v3/';  // Client::$zones['DEFAULT']['push']
        $payload = [
            'platform' => 'all',
            'audience' => 'all',
            'notification' => ['alert' => 'hello'],
            'options' => ['sendno' => random_int(100000, mt_getrandmax()), 'apns_production' => false],
        ];
        [$status, $pushed] = $this->sdk($url . 'push', 'POST', $payload, 'JPush-API-PHP-Client', h2c: true);
        $this->assertSame(200, $status, json_encode($pushed));
        $this->assertSame((string) $payload['options']['sendno'], (string) $pushed['sendno']);
        $this->assertSame(['alert' => 'hello'], $this->sandbox->nextPush(['msg_id' => $pushed['msg_id']])['notification']);
        // DevicePayload::getDevices($rid): GET $zones['DEFAULT']['device'] . $rid
        $rid = $this->sandbox->devices(['platform' => 'android'])[0]['registration_id'];
        [$status, $device] = $this->sdk($this->sandbox->deviceBaseUrl . "/v3/devices/$rid", 'GET', null, 'JPush-API-PHP-Client', h2c: true);
        $this->assertSame(200, $status);
        $this->assertArrayHasKey('tags', $device);
        $this->assertSame('JPush-API-PHP-Client', $this->sandbox->nextRequest(['path' => '/v3/push'])['user_agent']);
    }
}
