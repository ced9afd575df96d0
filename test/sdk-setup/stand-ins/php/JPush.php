<?php
// Stands in for jpush/jpush 3.6.5 (jpush/jpush-api-php-client: src/JPush/Client.php,
// PushPayload.php, Http.php, Config.php): the zones' hosts are private constants of the client; a
// push is curl with User-Agent JPush-API-PHP-Client, Basic auth, HTTP/2 offered, the peer's
// certificate not checked, `Content-Type: application/json` and `Connection: Keep-Alive`, and the
// body json_encode(build()): platform, audience, notification, then options (a random sendno,
// apns_production false). 200 is success; any other status throws.
namespace JPush;

class APIRequestException extends \Exception
{
}

class Client
{
    private static $zones = [
        'DEFAULT' => ['push' => 'https://api.jpush.cn/v3/'],
        'BJ' => ['push' => 'https://bjapi.push.jiguang.cn/v3/'],
    ];
    private $appKey;
    private $masterSecret;
    private $zone;

    public function __construct($appKey, $masterSecret, $logFile = './jpush.log', $retryTimes = 3, $zone = null)
    {
        $this->appKey = $appKey;
        $this->masterSecret = $masterSecret;
        $this->zone = is_null($zone) ? 'DEFAULT' : strtoupper($zone);
    }

    public function push()
    {
        return new PushPayload($this);
    }

    public function getAuthStr()
    {
        return $this->appKey . ':' . $this->masterSecret;
    }

    public function makeURL($key)
    {
        return self::$zones[$this->zone][$key];
    }
}

class PushPayload
{
    private $client;
    private $url;
    private $platform;
    private $audience;
    private $notificationAlert;

    public function __construct($client)
    {
        $this->client = $client;
        $this->url = $client->makeURL('push') . 'push';
    }

    public function setPlatform($platform)
    {
        $this->platform = strtolower($platform) === 'all' ? 'all' : [strtolower($platform)];
        return $this;
    }

    public function addAllAudience()
    {
        $this->audience = 'all';
        return $this;
    }

    public function setNotificationAlert($alert)
    {
        $this->notificationAlert = $alert;
        return $this;
    }

    public function build()
    {
        return [
            'platform' => $this->platform,
            'audience' => $this->audience,
            'notification' => ['alert' => $this->notificationAlert],
            'options' => ['sendno' => rand(100000, getrandmax()), 'apns_production' => false],
        ];
    }

    public function send()
    {
        $ch = curl_init();
        curl_setopt($ch, CURLOPT_URL, $this->url);
        curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
        curl_setopt($ch, CURLOPT_HEADER, true);
        curl_setopt($ch, CURLOPT_USERAGENT, 'JPush-API-PHP-Client');
        curl_setopt($ch, CURLOPT_CONNECTTIMEOUT, 20);
        curl_setopt($ch, CURLOPT_TIMEOUT, 120);
        curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);
        curl_setopt($ch, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_setopt($ch, CURLOPT_USERPWD, $this->client->getAuthStr());
        curl_setopt($ch, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_0);
        curl_setopt($ch, CURLOPT_POST, true);
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($this->build()));
        curl_setopt($ch, CURLOPT_HTTPHEADER, ['Content-Type: application/json', 'Connection: Keep-Alive']);
        $output = curl_exec($ch);
        if ($output === false) {
            throw new \RuntimeException('APIConnectionException: ' . curl_error($ch));
        }
        $httpCode = curl_getinfo($ch, CURLINFO_HTTP_CODE);
        $headerSize = curl_getinfo($ch, CURLINFO_HEADER_SIZE);
        $headers = [];
        foreach (explode("\r\n", substr($output, 0, $headerSize)) as $i => $line) {
            if ($line !== '' && strpos($line, ': ')) {
                list($key, $value) = explode(': ', $line, 2);
                $headers[$key] = $value;
            }
        }
        $body = json_decode(substr($output, $headerSize), true);
        curl_close($ch);
        if ($httpCode !== 200) {
            throw new APIRequestException(json_encode($body), $httpCode);
        }
        return ['body' => $body, 'http_code' => $httpCode, 'headers' => $headers];
    }
}
