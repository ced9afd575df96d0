-- What the current official SDKs call beyond the push itself (issue 22; docs/jpush-wire.md): images
-- a push names by media_id, push templates, test devices, push plans; and what a push records of
-- them (its group push, its plan). Times are epoch milliseconds on the owning app's clock.

-- POST/PUT /v3/images/byurls and /byfiles: one image (one media_id) per row, with the address each
-- vendor channel adopted, kept 30 days from its last change (jpush-wire.md "Images").
CREATE TABLE push_images (
  media_id     TEXT PRIMARY KEY,                 -- jgmedia-<image_type>-<uuid>
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  image_type   INTEGER NOT NULL,                 -- 1 big picture, 2 large icon, 3 small icon
  source       TEXT NOT NULL,                    -- url | file: how it was last given
  image_url    TEXT,                             -- the common address (byurls' image_url)
  channels     TEXT NOT NULL,                    -- JSON: channel → adopted address or id
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE INDEX push_images_by_app ON push_images (app_key, created_at);

-- The uploaded files of /v3/images/byfiles, one per channel part (xiaomi_file, oppo_file…): the
-- bytes as sent, for the control plane to show.
CREATE TABLE push_image_files (
  media_id      TEXT NOT NULL REFERENCES push_images (media_id) ON DELETE CASCADE,
  channel       TEXT NOT NULL,                   -- xiaomi | oppo | huawei | fcm | jiguang
  file_name     TEXT NOT NULL,
  content_type  TEXT NOT NULL,                   -- image/png | image/jpeg, from the bytes
  width         INTEGER,
  height        INTEGER,
  bytes         BLOB NOT NULL,
  uploaded_at   INTEGER NOT NULL,
  PRIMARY KEY (media_id, channel)
);

-- POST /v3/test/model/add…: the app's test devices, which a push with options.test_model reaches
-- alone. A device removed from the registry leaves the test devices with it.
CREATE TABLE push_test_devices (
  app_key          TEXT NOT NULL,
  registration_id  TEXT NOT NULL,
  device_name      TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (app_key, registration_id),
  FOREIGN KEY (app_key, registration_id) REFERENCES push_devices (app_key, registration_id) ON DELETE CASCADE
);

-- POST /v3/push_plan/create (send_source 0) or the seed file and control plane (1, "web"): a name
-- a push gives in options.business_operation_code, counted per plan (pushes.plan).
CREATE TABLE push_plans (
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  description  TEXT NOT NULL,
  send_source  INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (app_key, name)
);

-- Push templates (the vendor's console makes them; here the seed file and the control plane):
-- a push body with {{name}} placeholders, which /v3/push/template renders per audience.
CREATE TABLE push_templates (
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  template_id  TEXT NOT NULL,
  name         TEXT NOT NULL,
  params       TEXT NOT NULL,                    -- JSON array of the placeholder names
  push         TEXT NOT NULL,                    -- JSON: the push body without audience
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  PRIMARY KEY (app_key, template_id)
);

-- What a push belongs to: the group push that made it (GET /v3/group/messages/detail sums a
-- group_msgid's pushes) and the plan it named. Only the pushes that carry one are indexed.
ALTER TABLE pushes ADD COLUMN group_msgid TEXT;
ALTER TABLE pushes ADD COLUMN plan TEXT;
CREATE INDEX pushes_by_group_msgid ON pushes (group_msgid) WHERE group_msgid IS NOT NULL;
CREATE INDEX pushes_by_plan ON pushes (app_key, plan) WHERE plan IS NOT NULL;
