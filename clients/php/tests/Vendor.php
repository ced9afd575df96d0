<?php

declare(strict_types=1);

namespace JiguangSandbox\Tests;

use JiguangSandbox\SandboxApp;

/** The application under test's calls to /v1 and /v3: JSON with the app's credentials. */
final class Vendor
{
    /** @return array{0: int, 1: mixed} the status and the decoded answer, whatever the status */
    public static function call(SandboxApp $app, string $method, string $path, mixed $body = null): array
    {
        $curl = curl_init($app->smsBaseUrl . $path);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_PROXY => '',
            CURLOPT_HTTPHEADER => ["Authorization: {$app->authorization}", 'Content-Type: application/json'],
            CURLOPT_POSTFIELDS => $body === null ? null : json_encode($body, JSON_UNESCAPED_UNICODE),
        ]);
        $text = (string) curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        return [$status, json_decode($text, true)];
    }
}
