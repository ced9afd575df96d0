-- What the report host's click counters (jpush-api.md §6.3, §6.4) and user statistics (§6.5)
-- are computed from, besides devices and deliveries. Times are epoch milliseconds on the app's clock.

-- A device opening a push it received (POST /_sandbox/push/messages/{msg_id}/clicks): once per
-- device and push, as a notification leaves the tray when it is opened.
CREATE TABLE push_clicks (
  msg_id           TEXT NOT NULL REFERENCES pushes (msg_id) ON DELETE CASCADE,
  app_key          TEXT NOT NULL,
  registration_id  TEXT NOT NULL,
  platform         TEXT NOT NULL,
  kind             TEXT NOT NULL,                -- notification | message (what was opened)
  clicked_at       INTEGER NOT NULL,
  PRIMARY KEY (msg_id, registration_id)
);
CREATE INDEX push_clicks_by_time ON push_clicks (app_key, clicked_at);

-- Each device's online sessions: from coming online (or registering online) to going offline
-- (NULL while it is online). The "online" users of a period are the devices online at some moment
-- of it, which the current state alone cannot tell.
CREATE TABLE push_device_sessions (
  app_key          TEXT NOT NULL,
  registration_id  TEXT NOT NULL,
  platform         TEXT NOT NULL,
  online_at        INTEGER NOT NULL,
  offline_at       INTEGER,
  FOREIGN KEY (app_key, registration_id) REFERENCES push_devices (app_key, registration_id) ON DELETE CASCADE
);
CREATE INDEX push_device_sessions_by_device ON push_device_sessions (app_key, registration_id, online_at);

-- Triggers, so that no path that registers a device or changes its state (the control plane, the
-- fixtures, a reset re-provisioning) can leave its sessions behind. A change stamps last_online_at.
CREATE TRIGGER push_devices_registered_online AFTER INSERT ON push_devices
WHEN new.online = 1
BEGIN
  INSERT INTO push_device_sessions (app_key, registration_id, platform, online_at)
  VALUES (new.app_key, new.registration_id, new.platform, new.created_at);
END;

CREATE TRIGGER push_devices_came_online AFTER UPDATE OF online ON push_devices
WHEN old.online = 0 AND new.online = 1
BEGIN
  INSERT INTO push_device_sessions (app_key, registration_id, platform, online_at)
  VALUES (new.app_key, new.registration_id, new.platform, coalesce(new.last_online_at, new.created_at));
END;

CREATE TRIGGER push_devices_went_offline AFTER UPDATE OF online ON push_devices
WHEN old.online = 1 AND new.online = 0
BEGIN
  UPDATE push_device_sessions SET offline_at = coalesce(new.last_online_at, new.created_at)
  WHERE app_key = new.app_key AND registration_id = new.registration_id AND offline_at IS NULL;
END;

-- Devices registered before this migration: online since registration if online now, or until
-- they were last seen online if that was after registration (the history before is unknown).
INSERT INTO push_device_sessions (app_key, registration_id, platform, online_at, offline_at)
  SELECT app_key, registration_id, platform, created_at, CASE WHEN online = 1 THEN NULL ELSE last_online_at END
  FROM push_devices WHERE online = 1 OR last_online_at > created_at;
