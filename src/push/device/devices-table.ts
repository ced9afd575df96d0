import {
  type ApnsEnvironment,
  type Device,
  type PushPlatform,
  type DeviceRow as Row,
  twinDefaults,
  type VendorChannel,
} from '../../device.js'
import type { Engine } from '../../store/engine/index.js'

type Key = { appKey: string; rid: string }

/** The registry: each app's devices and their tags (migrations 003, 023), as phones registered them. */
export function createPushDeviceStore({ db, caches }: Engine) {
  const get = db.prepare<Key, Row>(
    'SELECT * FROM push_devices WHERE app_key = @appKey AND registration_id = @rid',
  )
  const list = db.prepare<[string], Row>(
    'SELECT * FROM push_devices WHERE app_key = ? ORDER BY created_at, rowid',
  )
  const tagsOf = db.prepare<Key, { tag: string }>(
    'SELECT tag FROM push_device_tags WHERE app_key = @appKey AND registration_id = @rid ORDER BY tag',
  )
  const allTags = db.prepare<[string], { app_key: string; registration_id: string; tag: string }>(
    'SELECT * FROM push_device_tags WHERE app_key = ?',
  )
  const insert = db.prepare(
    `INSERT INTO push_devices (app_key, registration_id, platform, alias, mobile, online, last_online_at, created_at,
       channel, apns_environment)
     VALUES (@appKey, @registrationId, @platform, @alias, @mobile, @online, @lastOnlineAt, @createdAt,
       @channel, @apnsEnvironment)`,
  )
  const setField = {
    alias: db.prepare(
      'UPDATE push_devices SET alias = @value WHERE app_key = @appKey AND registration_id = @rid',
    ),
    mobile: db.prepare(
      'UPDATE push_devices SET mobile = @value WHERE app_key = @appKey AND registration_id = @rid',
    ),
  }
  const setTwin = db.prepare(
    `UPDATE push_devices SET channel = @channel, apns_environment = @apnsEnvironment
     WHERE app_key = @appKey AND registration_id = @rid`,
  )
  const setOnline = db.prepare(
    `UPDATE push_devices SET online = @online, last_online_at = @now
     WHERE app_key = @appKey AND registration_id = @rid`,
  )
  const addTag = db.prepare(
    'INSERT OR IGNORE INTO push_device_tags (app_key, registration_id, tag) VALUES (@appKey, @rid, @tag)',
  )
  const removeTag = db.prepare(
    'DELETE FROM push_device_tags WHERE app_key = @appKey AND registration_id = @rid AND tag = @tag',
  )
  const clearTags = db.prepare(
    'DELETE FROM push_device_tags WHERE app_key = @appKey AND registration_id = @rid',
  )
  const byAlias = db.prepare<{ appKey: string; alias: string }, Row>(
    'SELECT * FROM push_devices WHERE app_key = @appKey AND alias = @alias ORDER BY created_at, rowid',
  )
  const byTag = db.prepare<{ appKey: string; tag: string }, Row>(
    `SELECT d.* FROM push_devices d JOIN push_device_tags t
       ON t.app_key = d.app_key AND t.registration_id = d.registration_id
     WHERE d.app_key = @appKey AND t.tag = @tag`,
  )
  const distinctTags = db.prepare<[string], { tag: string }>(
    'SELECT DISTINCT tag FROM push_device_tags WHERE app_key = ? ORDER BY tag',
  )
  const countAll = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM push_devices WHERE app_key = ?',
  )
  const countTagged = db.prepare<{ appKey: string; tags: string }, { n: number }>(
    `SELECT count(DISTINCT registration_id) AS n FROM push_device_tags
     WHERE app_key = @appKey AND tag IN (SELECT value FROM json_each(@tags))`,
  )
  // How many devices each app has, read once from SQLite, then kept by the insert (the device cap
  // and the fan-out's choice of path ask it on every registration and push). Journaled: a write
  // job that rolls back takes its count back too; a reset forgets it (caches.forgetApp).
  const counted = caches.rows<string, { n: number }>({ perApp: true, journaled: true })

  // Without `tags`, they are read when first asked for: a push to a registration_id or an alias
  // without tag selectors never asks (a statement per push less). One getter for every device (a
  // closure per device gave each its own hidden class), the tags it read kept beside the device.
  const readTags = new WeakMap<Device, string[]>()
  const lazyTags: PropertyDescriptor = {
    enumerable: true,
    get(this: Device): string[] {
      let read = readTags.get(this)
      if (!read) {
        read = tagsOf.all({ appKey: this.appKey, rid: this.registrationId }).map(t => t.tag)
        readTags.set(this, read)
      }
      return read
    },
  }
  const toDevice = (r: Row, tags?: string[]): Device => {
    const device = {
      appKey: r.app_key,
      registrationId: r.registration_id,
      platform: r.platform as PushPlatform,
      alias: r.alias,
      mobile: r.mobile,
      online: r.online === 1,
      lastOnlineAt: r.last_online_at,
      createdAt: r.created_at,
      channel: r.channel as VendorChannel | null,
      apnsEnvironment: r.apns_environment as ApnsEnvironment | null,
    } as Device
    if (tags) device.tags = tags
    else Object.defineProperty(device, 'tags', lazyTags)
    return device
  }

  return {
    get(appKey: string, rid: string): Device | undefined {
      const row = get.get({ appKey, rid })
      return row && toDevice(row)
    },
    /**
     * Every device of the app with its tags: the registry an audience resolves against.
     * `withTags: false` leaves `tags` empty (a broadcast needs none, over 100 000 devices).
     */
    list(appKey: string, withTags = true): Device[] {
      const tags = new Map<string, string[]>()
      if (withTags) {
        for (const t of allTags.all(appKey)) {
          const own = tags.get(t.registration_id)
          if (own) own.push(t.tag)
          else tags.set(t.registration_id, [t.tag])
        }
      }
      return list.all(appKey).map(r => toDevice(r, (tags.get(r.registration_id) ?? []).sort()))
    },
    /** `channel` and `apnsEnvironment` default to the platform's (twinDefaults). */
    insert(
      d: Omit<Device, 'tags' | 'channel' | 'apnsEnvironment'> &
        Partial<Pick<Device, 'channel' | 'apnsEnvironment'>>,
      tags: string[],
    ): void {
      insert.run({ ...twinDefaults(d.platform), ...d, online: d.online ? 1 : 0 })
      const known = counted.get(d.appKey)
      if (known) counted.remember(d.appKey, { n: known.n + 1 })
      for (const tag of tags) addTag.run({ appKey: d.appKey, rid: d.registrationId, tag })
    },
    /** How many devices the app has (kept in memory after the first time). */
    count(appKey: string): number {
      return (counted.get(appKey) ?? counted.remember(appKey, { n: countAll.get(appKey)?.n ?? 0 })).n
    },
    /** How many devices hold any of `tags` (through the tags' index). */
    tagged(appKey: string, tags: readonly string[]): number {
      return countTagged.get({ appKey, tags: JSON.stringify(tags) })?.n ?? 0
    },
    setAlias(appKey: string, rid: string, alias: string | null): void {
      setField.alias.run({ appKey, rid, value: alias })
    },
    setMobile(appKey: string, rid: string, mobile: string | null): void {
      setField.mobile.run({ appKey, rid, value: mobile })
    },
    /** The phone's channel and APNs environment (a re-registration from another build). */
    setTwin(
      appKey: string,
      rid: string,
      twin: { channel: VendorChannel | null; apnsEnvironment: ApnsEnvironment | null },
    ): void {
      setTwin.run({ appKey, rid, ...twin })
    },
    setOnline(appKey: string, rid: string, online: boolean, now: number): void {
      setOnline.run({ appKey, rid, online: online ? 1 : 0, now })
    },
    addTags(appKey: string, rid: string, tags: string[]): void {
      for (const tag of tags) addTag.run({ appKey, rid, tag })
    },
    removeTags(appKey: string, rid: string, tags: string[]): void {
      for (const tag of tags) removeTag.run({ appKey, rid, tag })
    },
    clearTags(appKey: string, rid: string): void {
      clearTags.run({ appKey, rid })
    },
    byAlias(appKey: string, alias: string): Device[] {
      return byAlias.all({ appKey, alias }).map(r => toDevice(r))
    },
    byTag(appKey: string, tag: string): Device[] {
      return byTag.all({ appKey, tag }).map(r => toDevice(r))
    },
    tags(appKey: string): string[] {
      return distinctTags.all(appKey).map(t => t.tag)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The registry: each app's devices, their tags, aliases and twins (store.pushDevices). */
    pushDevices: ReturnType<typeof createPushDeviceStore>
  }
}
