<?php
// Stands in for jiguang/jsms 1.0.9 (jpush/jsms-api-php-client, src/JSMS.php): the URL is a class
// constant; a call is curl with User-Agent JSMS-API-PHP-CLIENT, Basic auth, the method as a custom
// request, `Connection: Keep-Alive` and `Content-Type: application/json`, the body json_encode'd;
// the certificate is checked unless ssl_verify is false or disable_ssl true. It never throws on
// an HTTP status: the answer is http_code, headers and the decoded body.
namespace JiGuang;

final class JSMS
{
    const URL = 'https://api.sms.jpush.cn/v1/';

    private $appKey;
    private $masterSecret;
    private $options;

    public function __construct($appKey, $masterSecret, array $options = array())
    {
        $this->appKey = $appKey;
        $this->masterSecret = $masterSecret;
        $this->options = array_merge(['ssl_verify' => true, 'disable_ssl' => false], $options);
    }

    public function sendCode($mobile, $temp_id, $sign_id = null)
    {
        $body = array('mobile' => $mobile, 'temp_id' => $temp_id);
        if (isset($sign_id)) {
            $body['sign_id'] = $sign_id;
        }
        return $this->request('POST', self::URL . 'codes', $body);
    }

    public function request($method, $url, $body = [])
    {
        $ch = curl_init();
        $options = array(
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HEADER => true,
            CURLOPT_HTTPHEADER => array('Connection: Keep-Alive', 'Content-Type: application/json'),
            CURLOPT_USERAGENT => 'JSMS-API-PHP-CLIENT',
            CURLOPT_CONNECTTIMEOUT => 20,
            CURLOPT_TIMEOUT => 120,
            CURLOPT_HTTPAUTH => CURLAUTH_BASIC,
            CURLOPT_USERPWD => $this->appKey . ':' . $this->masterSecret,
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
        );
        if (!$this->options['ssl_verify'] || (bool) $this->options['disable_ssl']) {
            $options[CURLOPT_SSL_VERIFYPEER] = false;
            $options[CURLOPT_SSL_VERIFYHOST] = 0;
        }
        if (!empty($body)) {
            $options[CURLOPT_POSTFIELDS] = json_encode($body);
        }
        curl_setopt_array($ch, $options);
        $output = curl_exec($ch);
        if ($output === false) {
            return 'Error Code:' . curl_errno($ch) . ', Error Message:' . curl_error($ch);
        }
        $httpCode = curl_getinfo($ch, CURLINFO_HTTP_CODE);
        $headerSize = curl_getinfo($ch, CURLINFO_HEADER_SIZE);
        $headers = array();
        foreach (explode("\r\n", substr($output, 0, $headerSize)) as $i => $line) {
            if (!empty($line)) {
                if ($i === 0) {
                    $headers[0] = $line;
                } elseif (strpos($line, ': ')) {
                    list($key, $value) = explode(': ', $line, 2);
                    $headers[$key] = $value;
                }
            }
        }
        curl_close($ch);
        return ['headers' => $headers, 'body' => json_decode(substr($output, $headerSize), true), 'http_code' => $httpCode];
    }
}
