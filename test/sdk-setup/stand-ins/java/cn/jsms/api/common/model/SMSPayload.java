package cn.jsms.api.common.model;

import standin.Wire;

/**
 * Stands in for jsms-client 1.2.10's SMSPayload (src/main/java/cn/jsms/api/common/model/
 * SMSPayload.java): its toJSON writes mobile, then sign_id and temp_id only when above 0, ttl only
 * when above 0, as Gson writes a JsonObject (compact).
 */
public class SMSPayload {
    private final String mobile;
    private final int tempId;

    private SMSPayload(String mobile, int tempId) {
        this.mobile = mobile;
        this.tempId = tempId;
    }

    public static Builder newBuilder() {
        return new Builder();
    }

    public static class Builder {
        private String mobile;
        private int tempId;

        public Builder setMobileNumber(String mobileNumber) {
            this.mobile = mobileNumber.trim();
            return this;
        }

        public Builder setTempId(int tempId) {
            this.tempId = tempId;
            return this;
        }

        public SMSPayload build() {
            if (mobile == null || mobile.isEmpty()) throw new IllegalArgumentException("mobile number should not be empty");
            return new SMSPayload(mobile, tempId);
        }
    }

    @Override
    public String toString() {
        return "{\"mobile\":" + Wire.quote(mobile) + (tempId > 0 ? ",\"temp_id\":" + tempId : "") + "}";
    }
}
