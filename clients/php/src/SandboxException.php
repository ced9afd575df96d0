<?php

declare(strict_types=1);

namespace JiguangSandbox;

/**
 * A refusal of the sandbox: its HTTP status and the code of its {"error":{"code","message"}}
 * envelope (the control plane's codes are 90001-90099, docs/control-plane.md "Errors of the
 * control plane"). errorCode is null when the answer was not that envelope (a proxy's page, a cut
 * connection: status 0); body holds what came.
 */
final class SandboxException extends \RuntimeException
{
    public function __construct(
        public readonly int $status,
        public readonly ?int $errorCode,
        string $message,
        public readonly mixed $body = null,
    ) {
        parent::__construct($message, $errorCode ?? 0);
    }

    public static function fromAnswer(string $method, string $path, int $status, string $text): self
    {
        $body = json_decode($text, true);
        $error = is_array($body) && is_array($body['error'] ?? null) ? $body['error'] : null;
        if ($error !== null && is_int($error['code'] ?? null) && is_string($error['message'] ?? null)) {
            return new self($status, $error['code'], "$method $path: {$error['code']} {$error['message']}", $body);
        }
        $shown = strlen($text) > 200 ? substr($text, 0, 200) . '…' : $text;
        return new self($status, null, trim("$method $path: HTTP $status $shown"), $body ?? $text);
    }
}
