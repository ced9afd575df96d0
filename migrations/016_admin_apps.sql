-- The JPush Admin API (admin.jpush.cn/v1, devKey:devSecret; docs/jpush-wire.md "Admin API"): what
-- an app created through it was created as, and the APNs certificates uploaded to an app.

-- POST /v1/app: the app's name and Android package (a second create of the same package by the
-- same developer answers that app, is_new_created false), and its group's name if it gave one.
CREATE TABLE app_profiles (
  app_key          TEXT PRIMARY KEY REFERENCES apps (app_key) ON DELETE CASCADE,
  app_name         TEXT NOT NULL,
  android_package  TEXT NOT NULL,
  group_name       TEXT,
  created_at       INTEGER NOT NULL
);
CREATE INDEX app_profiles_by_package ON app_profiles (android_package);

-- POST /v1/app/{appKey}/certificate: one certificate per environment (dev, pro), as uploaded
-- (PKCS#12 bytes), with what was read from it once it opened with its password.
CREATE TABLE app_certificates (
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  environment  TEXT NOT NULL,                    -- dev | pro
  file_name    TEXT NOT NULL,
  bytes        BLOB NOT NULL,
  subject      TEXT NOT NULL,                    -- the certificate's common name
  bundle_id    TEXT,                             -- its UID (the app's bundle id), when it has one
  not_after    INTEGER NOT NULL,                 -- epoch ms
  uploaded_at  INTEGER NOT NULL,
  PRIMARY KEY (app_key, environment)
);
