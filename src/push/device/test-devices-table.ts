import type { Engine } from '../../store/engine/index.js'

/** A device of the app marked as a test device (POST /v3/test/model/add). */
export interface TestDevice {
  appKey: string
  registrationId: string
  deviceName: string
  platform: string
  /** When the device registered (its row in push_devices). */
  registeredAt: number
  createdAt: number
}

interface Row {
  app_key: string
  registration_id: string
  device_name: string
  platform: string
  registered_at: number
  created_at: number
}

const toDevice = (r: Row): TestDevice => ({
  appKey: r.app_key,
  registrationId: r.registration_id,
  deviceName: r.device_name,
  platform: r.platform,
  registeredAt: r.registered_at,
  createdAt: r.created_at,
})

const SELECT = `SELECT t.app_key, t.registration_id, t.device_name, d.platform, d.created_at AS registered_at,
    t.created_at
  FROM push_test_devices t JOIN push_devices d
    ON d.app_key = t.app_key AND d.registration_id = t.registration_id`

/**
 * The test devices of each app: a subset of its registry (a device that leaves the registry leaves
 * them by the foreign key), which a push with `options.test_model` reaches alone.
 */
export function createPushTestDeviceStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO push_test_devices (app_key, registration_id, device_name, created_at)
     VALUES (@appKey, @registrationId, @deviceName, @createdAt)`,
  )
  const rename = db.prepare(
    `UPDATE push_test_devices SET device_name = @deviceName
     WHERE app_key = @appKey AND registration_id = @registrationId`,
  )
  const remove = db.prepare(
    'DELETE FROM push_test_devices WHERE app_key = @appKey AND registration_id = @registrationId',
  )
  const get = db.prepare<{ appKey: string; registrationId: string }, Row>(
    `${SELECT} WHERE t.app_key = @appKey AND t.registration_id = @registrationId`,
  )
  const list = db.prepare<[string], Row>(`${SELECT} WHERE t.app_key = ? ORDER BY t.created_at, t.rowid`)
  const ids = db.prepare<[string], { registration_id: string }>(
    'SELECT registration_id FROM push_test_devices WHERE app_key = ?',
  )
  const count = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM push_test_devices WHERE app_key = ?',
  )

  return {
    add(d: { appKey: string; registrationId: string; deviceName: string; createdAt: number }): void {
      insert.run(d)
    },
    /** Whether the app had that test device to rename. */
    rename(appKey: string, registrationId: string, deviceName: string): boolean {
      return rename.run({ appKey, registrationId, deviceName }).changes > 0
    },
    /** Whether the app had that test device to remove. */
    remove(appKey: string, registrationId: string): boolean {
      return remove.run({ appKey, registrationId }).changes > 0
    },
    get(appKey: string, registrationId: string): TestDevice | undefined {
      const row = get.get({ appKey, registrationId })
      return row && toDevice(row)
    },
    /** In the order they were added. */
    list(appKey: string): TestDevice[] {
      return list.all(appKey).map(toDevice)
    },
    /** The registration_ids a test-mode push may reach. */
    ids(appKey: string): Set<string> {
      return new Set(ids.all(appKey).map(r => r.registration_id))
    },
    count(appKey: string): number {
      return count.get(appKey)?.n ?? 0
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The app's test devices, which a push with options.test_model reaches alone. */
    pushTestDevices: ReturnType<typeof createPushTestDeviceStore>
  }
}
