-- Issue 30: each device is a twin of a phone, and each delivery says how it went. A push reaches
-- an Android phone over the JPush connection while the app is online, else through the phone
-- maker's channel (third_party_channel.<vendor>.distribution); an iOS phone only through the APNs
-- environment its build registered in; the vendors with daily quotas count them per day
-- (push/delivery/route.ts).

-- The phone maker's channel the device registered with: huawei, honor, xiaomi, oppo, vivo, meizu,
-- fcm (Android), hmos (HarmonyOS), or NULL: the JPush connection only.
ALTER TABLE push_devices ADD COLUMN channel TEXT;
-- The APNs environment of an iOS device's build: development or production; NULL elsewhere.
ALTER TABLE push_devices ADD COLUMN apns_environment TEXT;
-- Devices from before: an iOS device is a production build (the server's default for a push
-- without apns_production), a HarmonyOS one has its Push Kit channel.
UPDATE push_devices SET apns_environment = 'production' WHERE platform = 'ios';
UPDATE push_devices SET channel = 'hmos' WHERE platform = 'hmos';

-- How a delivery went: `route` the channel it took or will take once the device is back
-- (jpush, xiaomi, huawei, …, hmos, apns-production, apns-development); `reason` why it did not
-- arrive at once or at all (wrong-apns-environment, vendor-quota-exhausted,
-- offline-no-vendor-route, device-offline, dropped-classification). NULL for rows from before.
ALTER TABLE push_deliveries ADD COLUMN route TEXT;
ALTER TABLE push_deliveries ADD COLUMN reason TEXT;

-- What the vendors with daily quotas (GET /v3/push/quota: xiaomi, oppo, vivo) have taken today,
-- per kind of message (system, operation), on the app's clock in the sandbox time zone. Only
-- counted for a quota the app set (settings.quota); rows of past days are kept (a day is a few rows).
CREATE TABLE push_vendor_quota (
  app_key  TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  day_key  TEXT NOT NULL,                        -- yyyy-MM-dd in the sandbox time zone
  vendor   TEXT NOT NULL,                        -- xiaomi | oppo | vivo
  kind     TEXT NOT NULL,                        -- system | operation
  used     INTEGER NOT NULL,
  PRIMARY KEY (app_key, day_key, vendor, kind)
) WITHOUT ROWID;
