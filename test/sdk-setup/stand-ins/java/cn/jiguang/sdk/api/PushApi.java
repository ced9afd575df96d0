package cn.jiguang.sdk.api;

import cn.jiguang.sdk.bean.push.PushSendParam;
import cn.jiguang.sdk.bean.push.PushSendResult;
import java.util.LinkedHashMap;
import java.util.Map;
import standin.Wire;

/**
 * Stands in for jiguang-sdk 5.3.0's PushApi (jiguang-sdk/src/main/java/cn/jiguang/sdk/api/PushApi.java,
 * client/PushClient.java): Feign on OkHttp 4.12, target host "https://api.jpush.cn" unless setHost;
 * send is "POST /v3/push" with "Content-Type: application/json; charset=utf-8", Feign's
 * BasicAuthRequestInterceptor and Accept, and what OkHttp adds (User-Agent okhttp/4.12.0,
 * Accept-Encoding gzip). Any status but 2xx is an ApiErrorException (here IllegalStateException).
 */
public class PushApi {
    private final String host;
    private final String authorization;

    private PushApi(String host, String authorization) {
        this.host = host;
        this.authorization = authorization;
    }

    public PushSendResult send(PushSendParam param) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json; charset=utf-8");
        headers.put("Authorization", authorization);
        headers.put("Accept", "*/*");
        headers.put("Accept-Encoding", "gzip");
        headers.put("User-Agent", "okhttp/4.12.0");
        Wire.Answer answer = Wire.send("POST", host + "/v3/push", headers, param.toJson());
        if (answer.status / 100 != 2) throw new IllegalStateException("ApiErrorException " + answer.status + ": " + answer.body);
        return new PushSendResult(Wire.field(answer.body, "sendno"), Wire.field(answer.body, "msg_id"));
    }

    public static class Builder {
        private String host = "https://api.jpush.cn";
        private String appKey;
        private String masterSecret;

        public Builder setHost(String host) {
            this.host = host;
            return this;
        }

        public Builder setAppKey(String appKey) {
            this.appKey = appKey;
            return this;
        }

        public Builder setMasterSecret(String masterSecret) {
            this.masterSecret = masterSecret;
            return this;
        }

        public PushApi build() {
            return new PushApi(host, Wire.basic(appKey, masterSecret));
        }
    }
}
