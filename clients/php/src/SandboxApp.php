<?php

declare(strict_types=1);

namespace JiguangSandbox;

/**
 * One app of a sandbox: its credentials, the base URLs an official SDK needs, and the control
 * plane's (`/_sandbox`) calls a test uses, on curl. Every call sees and changes only this app
 * (docs/control-plane.md). Refusals throw SandboxException; a next…() that sees nothing arrive in
 * time throws NothingArrived, which lists what did arrive.
 *
 * smsBaseUrl serves /v1 (JSMS, api.sms.jpush.cn); pushBaseUrl, deviceBaseUrl and reportBaseUrl
 * serve /v3 (api.jpush.cn, device.jpush.cn, report.jpush.cn): all four are the sandbox's URL, named
 * so that an SDK's setup reads clearly.
 */
final class SandboxApp
{
    /** The server holds a `wait=` request for at most 30 s: a longer wait is a few requests in a row. */
    public const MAX_WAIT_MS = 30000;
    /** How long a next…() call waits when not told, in seconds. */
    public const DEFAULT_TIMEOUT = 5.0;
    /** A template's or signature's review decision. */
    public const APPROVED = 1;
    public const REJECTED = 2;

    /** Each list: its path, the key of its items in the answer, and what one item is called. */
    private const LISTS = [
        'messages' => ['/_sandbox/sms/messages', 'messages', 'text'],
        'pushes' => ['/_sandbox/push/messages', 'messages', 'push'],
        'requests' => ['/_sandbox/requests', 'requests', 'request'],
        'callbacks' => ['/_sandbox/callbacks', 'callbacks', 'callback'],
        'reports' => ['/_sandbox/sms/reports', 'reports', 'report'],
        'replies' => ['/_sandbox/sms/replies', 'replies', 'reply'],
    ];

    public readonly string $baseUrl;
    public readonly string $smsBaseUrl;
    public readonly string $pushBaseUrl;
    public readonly string $deviceBaseUrl;
    public readonly string $reportBaseUrl;
    /** `Basic …` of appKey:masterSecret: the same credentials for /v1, /v3 and /_sandbox. */
    public readonly string $authorization;
    /** The web UI opened on this app (docs/web-ui.md, links). */
    public readonly string $uiUrl;

    /** @var array<string, int> per list and filter, the seq of the last item next…() returned */
    private array $seen = [];
    private int $origin = 0;

    public function __construct(
        string $baseUrl,
        public readonly string $appKey,
        public readonly string $masterSecret,
        private readonly float $timeout = 30.0,
    ) {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->smsBaseUrl = $this->pushBaseUrl = $this->deviceBaseUrl = $this->reportBaseUrl = $this->baseUrl;
        $this->authorization = 'Basic ' . base64_encode("$appKey:$masterSecret");
        $this->uiUrl = "{$this->baseUrl}/_sandbox/ui/?app={$appKey}";
    }

    /** 24 lowercase hex digits: as the official clients require an appKey or masterSecret to look. */
    public static function randomKey(): string
    {
        return bin2hex(random_bytes(12));
    }

    /** An app of its own: a fresh random appKey and masterSecret, provisioned now. */
    public static function create(string $baseUrl): self
    {
        $app = new self($baseUrl, self::randomKey(), self::randomKey());
        try {
            $app->app();
        } catch (SandboxException $e) {
            if ($e->status !== 401) {
                throw $e;
            }
            throw new SandboxException(401, $e->errorCode, $e->getMessage() . ' (is AUTO_PROVISION off, or a cap reached?)', $e->body);
        }
        return $app;
    }

    // -- the wire ---------------------------------------------------------------------------------

    /**
     * One request with the app's credentials: JSON both ways (a string body is sent as it is),
     * a refusal thrown as SandboxException. Answers the decoded JSON, or the text with $raw.
     *
     * @param array<string, mixed> $query
     */
    public function call(string $method, string $path, array $query = [], mixed $body = null, ?float $timeout = null, bool $raw = false): mixed
    {
        $params = [];
        foreach ($query as $key => $value) {
            if ($value !== null) {
                $params[$key] = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
            }
        }
        $url = $this->baseUrl . $path . ($params === [] ? '' : '?' . http_build_query($params, '', '&', PHP_QUERY_RFC3986));
        $headers = ["Authorization: {$this->authorization}", 'Accept: application/json'];
        $curl = curl_init($url);
        $options = [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) (($timeout ?? $this->timeout) * 1000),
            CURLOPT_CONNECTTIMEOUT => 10,
        ];
        if (self::isLoopback($this->baseUrl)) {
            // A sandbox on this machine is never reached through a proxy the environment names.
            $options[CURLOPT_PROXY] = '';
        }
        if ($body !== null) {
            $options[CURLOPT_POSTFIELDS] = is_string($body) ? $body : self::json($body);
            $headers[] = 'Content-Type: application/json';
        }
        $options[CURLOPT_HTTPHEADER] = $headers;
        curl_setopt_array($curl, $options);
        $text = curl_exec($curl);
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        $error = curl_error($curl);
        curl_close($curl);
        if ($text === false) {
            throw new SandboxException(0, null, "$method $path: no answer from {$this->baseUrl}: $error");
        }
        if ($status < 200 || $status >= 300) {
            throw SandboxException::fromAnswer($method, $path, $status, (string) $text);
        }
        if ($raw || $text === '') {
            return $text;
        }
        $decoded = json_decode((string) $text, true);
        if (json_last_error() !== JSON_ERROR_NONE) {
            throw new SandboxException($status, null, "$method $path: the answer is not JSON: " . substr((string) $text, 0, 200));
        }
        return $decoded;
    }

    /** A GET that may be held by `wait=`: the transfer outlasts the hold. */
    private function held(string $path, array $query): mixed
    {
        $waitSeconds = ((int) ($query['wait'] ?? 0)) / 1000;
        return $this->call('GET', $path, $query, null, $this->timeout + $waitSeconds);
    }

    private static function json(mixed $body): string
    {
        // An empty PHP array is an empty JSON object here: every body of the control plane is one.
        return json_encode($body === [] ? new \stdClass() : $body, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
    }

    private static function isLoopback(string $url): bool
    {
        $host = trim((string) parse_url($url, PHP_URL_HOST), '[]');
        return in_array($host, ['127.0.0.1', 'localhost', '::1'], true);
    }

    // -- the app ------------------------------------------------------------------------------------

    /** The app's settings, balances, developer and clock (GET /_sandbox/app). */
    public function app(): array
    {
        return $this->call('GET', '/_sandbox/app');
    }

    /** Changes any of the app's settings at once (PATCH /_sandbox/app); answers the new state. */
    public function patchApp(array $patch): array
    {
        return $this->call('PATCH', '/_sandbox/app', [], $patch);
    }

    /** Back to its first use: all it did is gone, fixtures and settings back, its clock real. */
    public function reset(): array
    {
        $this->seen = [];
        return $this->call('POST', '/_sandbox/reset');
    }

    /** Removes the app; the next request with these credentials provisions it afresh. */
    public function deleteApp(): array
    {
        return $this->call('DELETE', '/_sandbox/app');
    }

    /** Everything the app holds, as one versioned document (GET /_sandbox/app/export), decoded. */
    public function exportApp(): array
    {
        return $this->call('GET', '/_sandbox/app/export');
    }

    /** The document as the sandbox wrote it: the exact JSON, for a file another sandbox imports. */
    public function exportAppJson(): string
    {
        return $this->call('GET', '/_sandbox/app/export', [], null, null, true);
    }

    /**
     * Makes the app hold exactly what the document says (its own credentials kept). Give the JSON
     * text (exportAppJson(), a file) to keep it byte for byte: decoded, `{}` and `[]` look alike.
     */
    public function importApp(array|string $document): array
    {
        return $this->call('POST', '/_sandbox/app/import', [], $document);
    }

    // -- the clock ----------------------------------------------------------------------------------

    public function clock(): array
    {
        return $this->call('GET', '/_sandbox/clock');
    }

    /**
     * Moves the app's clock forward by milliseconds (or a DateInterval); answers once all that
     * fell due on the way (schedules, reports, reviews, callbacks) has run.
     */
    public function advanceClock(int|\DateInterval $by): array
    {
        if ($by instanceof \DateInterval) {
            $start = new \DateTimeImmutable('@0');
            $end = $start->add($by);
            $by = (int) round(((float) $end->format('U.u') - (float) $start->format('U.u')) * 1000);
        }
        return $this->call('POST', '/_sandbox/clock', [], ['advance_ms' => $by]);
    }

    /** Moves the app's clock forward to a time (never back: 409 90053): ISO-8601 text or a DateTimeInterface. */
    public function setClock(string|\DateTimeInterface $when): array
    {
        $stamp = $when instanceof \DateTimeInterface ? $when->format(\DateTimeInterface::RFC3339_EXTENDED) : $when;
        return $this->call('POST', '/_sandbox/clock', [], ['set' => $stamp]);
    }

    // -- what the app did: the lists ----------------------------------------------------------------

    private function readList(string $name, array $filter): Page
    {
        [$path, $key] = self::LISTS[$name];
        $page = $this->held($path, $filter);
        return new Page($page[$key] ?? [], (int) ($page['next_after'] ?? 0));
    }

    /**
     * The texts that went out, newest first. Filters as the wire takes them: mobile, msg_id, kind
     * (code, voice_code, template), after, since, until, limit, wait (ms).
     */
    public function messages(array $filter = []): Page
    {
        return $this->readList('messages', $filter);
    }

    /** What each device received of each push, newest first: registration_id, alias, msg_id, after… */
    public function pushes(array $filter = []): Page
    {
        return $this->readList('pushes', $filter);
    }

    /**
     * The request journal, newest first: each /v1 and /v3 call and /_sandbox write, what it was
     * answered and, when refused, why (`reason`). Filters: method, path (a prefix), status, code,
     * msg_id, after, since, until, limit, wait.
     */
    public function requests(array $filter = []): Page
    {
        return $this->readList('requests', $filter);
    }

    /** The callbacks to the app's URL with their attempts, latest change first. */
    public function callbacks(array $filter = []): Page
    {
        return $this->readList('callbacks', $filter);
    }

    /** The delivery reports that arrived, newest first. */
    public function reports(array $filter = []): Page
    {
        return $this->readList('reports', $filter);
    }

    /** The uplink replies the app got, newest first. */
    public function replies(array $filter = []): Page
    {
        return $this->readList('replies', $filter);
    }

    /**
     * The app's push devices in their order (the four fixtures and those registered since), those
     * matching every filter given: platform, alias, tag, mobile, online. The sandbox answers them
     * all: the filters are applied here.
     *
     * @return list<array<string, mixed>>
     */
    public function devices(array $filter = []): array
    {
        $devices = $this->call('GET', '/_sandbox/push/devices')['devices'];
        return array_values(array_filter($devices, static function (array $device) use ($filter): bool {
            foreach ($filter as $key => $value) {
                $ok = match ($key) {
                    'tag' => in_array($value, $device['tags'] ?? [], true),
                    'platform', 'alias', 'mobile', 'online' => ($device[$key] ?? null) === $value,
                    default => throw new \InvalidArgumentException("devices(): no filter \"$key\" (platform, alias, tag, mobile, online)"),
                };
                if (!$ok) {
                    return false;
                }
            }
            return true;
        }));
    }

    /**
     * The latest verification code texted to a mobile (GET /_sandbox/sms/codes/latest), waiting up
     * to $timeout seconds for one (`after` in $filter: one newer than that seq). None by then:
     * NothingArrived, listing the texts that did arrive.
     */
    public function latestCode(string $mobile, float $timeout = 0, array $filter = []): array
    {
        $deadline = microtime(true) + $timeout;
        while (true) {
            $wait = min(self::MAX_WAIT_MS, max(0, (int) (($deadline - microtime(true)) * 1000)));
            try {
                return $this->held('/_sandbox/sms/codes/latest', $filter + ['mobile' => $mobile, 'wait' => $wait ?: null]);
            } catch (SandboxException $e) {
                if ($e->errorCode !== 90044) {
                    throw $e;
                }
            }
            if (microtime(true) >= $deadline) {
                $after = (int) ($filter['after'] ?? 0);
                $arrived = $this->messages(['after' => $after ?: null, 'limit' => 10]);
                throw new NothingArrived('verification code', $filter + ['mobile' => $mobile], $after, $timeout, array_map(
                    static fn (array $item) => self::summary('text', $item),
                    $arrived->items,
                ));
            }
        }
    }

    // -- waiting for the next one -----------------------------------------------------------------

    /**
     * The app's latest seq, which it returns; from then on, next…() calls without `after` return
     * only what comes after it (until the first mark: from the app's first item).
     */
    public function mark(): int
    {
        // An answer with no item says the app's latest seq: nothing is older than epoch 0.
        $this->origin = $this->replies(['until' => 0, 'limit' => 1])->nextAfter;
        $this->seen = [];
        return $this->origin;
    }

    private function next(string $name, array $filter, ?int $after, float $timeout): array
    {
        [$path, $key, $what] = self::LISTS[$name];
        $filter = array_filter($filter, static fn ($v) => $v !== null);
        ksort($filter);
        $cursor = $name . '?' . json_encode($filter);
        $start = $after ?? $this->seen[$cursor] ?? $this->origin;
        $deadline = microtime(true) + $timeout;
        while (true) {
            $wait = min(self::MAX_WAIT_MS, max(0, (int) (($deadline - microtime(true)) * 1000)));
            $page = $this->held($path, ['after' => $start, 'limit' => 1, 'wait' => $wait] + $filter);
            $item = $page[$key][0] ?? null;
            if ($item !== null) {
                $this->seen[$cursor] = $item['seq'];
                return $item;
            }
            // A held request also ends early when the app is reset: then it is asked again.
            if (microtime(true) >= $deadline) {
                $arrived = $this->call('GET', $path, ['after' => $start, 'limit' => 10])[$key] ?? [];
                throw new NothingArrived($what, $filter, $start, $timeout, array_map(
                    static fn (array $item) => self::summary($what, $item),
                    $arrived,
                ));
            }
        }
    }

    /**
     * The next text matching $filter (mobile, kind, msg_id), waiting up to $timeout seconds for
     * it: the first after $after, else after the last one this call returned for the same filter
     * (or mark()). None in time: NothingArrived.
     */
    public function nextMessage(array $filter = [], float $timeout = self::DEFAULT_TIMEOUT, ?int $after = null): array
    {
        return $this->next('messages', $filter, $after, $timeout);
    }

    /** The next push a device received matching $filter (registration_id, alias, msg_id), waiting for it. */
    public function nextPush(array $filter = [], float $timeout = self::DEFAULT_TIMEOUT, ?int $after = null): array
    {
        return $this->next('pushes', $filter, $after, $timeout);
    }

    /** The next request of the journal matching $filter (a refusal: ['status' => 403]), waiting for it. */
    public function nextRequest(array $filter = [], float $timeout = self::DEFAULT_TIMEOUT, ?int $after = null): array
    {
        return $this->next('requests', $filter, $after, $timeout);
    }

    /** The next callback matching $filter to change, waiting for it. */
    public function nextCallback(array $filter = [], float $timeout = self::DEFAULT_TIMEOUT, ?int $after = null): array
    {
        return $this->next('callbacks', $filter, $after, $timeout);
    }

    /** One line of an item, for NothingArrived's list of what did arrive. */
    private static function summary(string $what, array $item): string
    {
        $seq = $item['seq'] ?? '?';
        $json = static fn (mixed $v) => json_encode($v, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
        return match ($what) {
            'text' => sprintf('seq %s: text %s to %s (%s) %s', $seq, $item['msg_id'] ?? '', $item['mobile'] ?? '', $item['kind'] ?? '', $json($item['content'] ?? '')),
            'push' => sprintf('seq %s: push %s to %s (%s, alias %s) %s', $seq, $item['msg_id'] ?? '', $item['registration_id'] ?? '', $item['platform'] ?? '', $item['alias'] ?? 'null', $json($item['notification'] ?? $item['message'] ?? null)),
            'request' => sprintf(
                'seq %s: %s %s answered %s%s%s',
                $seq,
                $item['method'] ?? '',
                $item['path'] ?? '',
                $item['status'] ?? '',
                isset($item['code']) ? " {$item['code']} {$item['message']}" : '',
                isset($item['reason']) ? " because {$item['reason']}" : '',
            ),
            default => "seq $seq: " . substr((string) $json($item), 0, 200),
        };
    }

    // -- making the vendor fail ---------------------------------------------------------------------

    /**
     * Arms a fault (POST /_sandbox/faults): the next `times` requests matching `method`, `path` and
     * `match` are answered with the vendor error `code` (`status`, `message`), after `delay_ms`.
     */
    public function armFault(array $fault): array
    {
        return $this->call('POST', '/_sandbox/faults', [], $fault);
    }

    /** The armed faults, with what remains of each. */
    public function faults(): array
    {
        return $this->call('GET', '/_sandbox/faults')['faults'];
    }

    /** Disarms every fault of the app; answers how many there were. */
    public function clearFaults(): int
    {
        return $this->call('DELETE', '/_sandbox/faults')['cleared'];
    }

    // -- playing the carrier, the handsets, the devices and the reviewer ----------------------------

    /** A handset replies to the app (pulled by GET /v1/reply, or called back). */
    public function reply(string $mobile, string $content): array
    {
        return $this->call('POST', '/_sandbox/sms/replies', [], ['mobile' => $mobile, 'content' => $content]);
    }

    /** The message's delivery report gets this status (4001-4100) when it falls due. */
    public function setReport(string $msgId, int $status): array
    {
        return $this->call('POST', '/_sandbox/sms/reports', [], ['msg_id' => $msgId, 'status' => $status]);
    }

    /** Decides a template's review now: APPROVED (1) or REJECTED (2, with the reviewer's words). */
    public function reviewTemplate(int $tempId, int $status, ?string $refuseReason = null): array
    {
        return $this->call('POST', "/_sandbox/sms/templates/$tempId/review", [], ['status' => $status, 'refuse_reason' => $refuseReason]);
    }

    /** Decides a signature's review now: APPROVED (1) or REJECTED (2). */
    public function reviewSign(int $signId, int $status, ?string $refuseReason = null): array
    {
        return $this->call('POST', "/_sandbox/sms/signs/$signId/review", [], ['status' => $status, 'refuse_reason' => $refuseReason]);
    }

    /**
     * A device registers as a phone app with JPush would: registration_id (made for it unless
     * given), alias, tags, mobile, online (true).
     */
    public function registerDevice(string $platform = 'android', array $device = []): array
    {
        return $this->call('POST', '/_sandbox/push/devices', [], ['platform' => $platform] + $device);
    }

    /** Online: what waits for it within its time_to_live is delivered now (`delivered`). */
    public function setDeviceOnline(string $registrationId, bool $online): array
    {
        return $this->call('PATCH', '/_sandbox/push/devices/' . rawurlencode($registrationId), [], ['online' => $online]);
    }

    /** The device opens a push it received: counted by the statistics that report clicks. */
    public function click(string $msgId, string $registrationId): array
    {
        return $this->call('POST', '/_sandbox/push/messages/' . rawurlencode($msgId) . '/clicks', [], ['registration_id' => $registrationId]);
    }
}
