import type { ApnsEnvironment, Device, DeviceRow, PushPlatform, VendorChannel } from '../../../device.js'
import type { Engine } from '../../../store/engine/index.js'
import { PUSH_DUE, type PushDeliveryStore } from './deliveries-table.js'

/**
 * A device's place in the registry's order (registration time, then rowid: the order every
 * fan-out writes deliveries in), which a push's slices go through (push/send/delivery/slices.ts).
 */
export type RegistryKey = readonly [createdAt: number, rowid: number]

/** Before every device of the registry. */
export const REGISTRY_START: RegistryKey = [Number.MIN_SAFE_INTEGER, 0]

/** A device of a slice, with its place in the registry. */
export type PlacedDevice = Device & { key: RegistryKey }

// A broadcast's deliveries (audience "all") as one INSERT … SELECT per slice of the registry
// (push/send/delivery/slices.ts), instead of reading 100 000 devices into JavaScript and inserting their
// rows one statement each (issue 11: that path cost 1.3 s, the inserts alone half of it). The rows
// are the ones the row-by-row path (push/send/delivery/fan-out.ts, deliverEach) writes, computed in SQL: the same devices (the app's, on the platforms the push
// reaches), in the same order (the registry's: created_at, rowid), so the same rowids; the same
// status, times and alias; and each device online at push time gets the next seq of the app, one
// consecutive range taken once by the engine (store/engine/statements.ts: `seqCount`), numbered in that order
// (`@seq + running count - 1`).

// How each device is reached (push/send/delivery/route.ts, routeOf, in SQL; no vendor quota here: a
// push of an app that set one takes the row-by-row path). @apnsEnv: the environment of the iOS
// notification; @distributions: each channel's distribution (JSON); @notified: the platforms with a
// notification (JSON). `go`: delivered at once; `route_`, `reason_`: as routeOf says.
const NOTIFIED = 'platform IN (SELECT value FROM json_each(@notified))'
const APNS_MATCH = '(apns_environment IS NULL OR apns_environment = @apnsEnv)'
const VENDOR = `(${NOTIFIED} AND channel IS NOT NULL AND (json_extract(@distributions, '$.' || channel) IN ('ospush', 'first_ospush')
  OR (json_extract(@distributions, '$.' || channel) = 'secondary_push' AND online = 0)))`
const ROUTED = `CASE WHEN platform = 'ios' AND ${NOTIFIED} THEN ${APNS_MATCH} AND online = 1
    WHEN ${VENDOR} THEN 1 ELSE online = 1 END AS go,
  CASE WHEN platform = 'ios' AND ${NOTIFIED} THEN CASE WHEN ${APNS_MATCH} THEN 'apns-' || @apnsEnv END
    WHEN ${VENDOR} THEN channel ELSE 'jpush' END AS route_,
  CASE WHEN platform = 'ios' AND ${NOTIFIED}
      THEN CASE WHEN NOT ${APNS_MATCH} THEN 'wrong-apns-environment' WHEN online = 0 THEN 'device-offline' END
    WHEN ${VENDOR} OR online = 1 THEN NULL ELSE 'offline-no-vendor-route' END AS reason_`

/** What the SQL of a push's routes reads (route.ts, Routing). */
export interface RouteParams {
  apnsEnvironment: string
  distributions: Record<string, string>
  notified: ReadonlySet<string>
}
const routeParams = (r: RouteParams) => ({
  apnsEnv: r.apnsEnvironment,
  distributions: JSON.stringify(r.distributions),
  notified: JSON.stringify([...r.notified]),
})

const OF_APP = `FROM (SELECT rowid AS place, *, ${ROUTED} FROM push_devices
  WHERE app_key = @appKey AND platform IN (SELECT value FROM json_each(@platforms)))`

interface FanOutParams {
  msgId: string
  appKey: string
  /** A JSON array of the platforms reached. */
  platforms: string
  now: number
  expiresAt: number
  /** What a device offline at push time gets: pending, or expired at once (time_to_live 0). */
  offline: 'pending' | 'expired'
  /** How many devices are online at push time: the seqs it takes, the first bound as `@seq`. */
  online: number
  apnsEnv: string
  distributions: string
  notified: string
}

const UNIT_SEPARATOR = '\u001f'

// A slice of the registry: the app's devices after one key and up to another, in registry order
// (through push_devices_in_order, migration 013), at most @limit of them.
const SLICE = `SELECT rowid AS place, * FROM push_devices INDEXED BY push_devices_in_order
  WHERE app_key = @appKey AND (created_at, rowid) > (@afterAt, @afterRow) AND (created_at, rowid) <= (@endAt, @endRow)
  ORDER BY created_at, rowid LIMIT @limit`

interface SliceParams {
  appKey: string
  afterAt: number
  afterRow: number
  endAt: number
  endRow: number
  limit: number
}

/** A row of the registry with its place in the registry's order (rowid). */
type PlacedRow = DeviceRow & { place: number }

/** The deliveries of a broadcast: how many devices it reaches, and their rows written a slice at a time. */
export function createPushFanOut({ db, writes }: Engine, deliveries: Pick<PushDeliveryStore, 'added'>) {
  const count = db.prepare<
    { appKey: string; platforms: string; apnsEnv: string; distributions: string; notified: string },
    { targets: number; online: number; ios: number; wrongApns: number }
  >(
    // ios, wrongApns: the iOS devices with a notification, and those of them of the other APNs
    // environment, for the production advisor (advisor/audience.ts), counted in the same pass.
    `SELECT count(*) AS targets, coalesce(sum(go), 0) AS online,
       coalesce(sum(platform = 'ios' AND ${NOTIFIED}), 0) AS ios,
       coalesce(sum(reason_ = 'wrong-apns-environment'), 0) AS wrongApns ${OF_APP}`,
  )
  const last = db.prepare<[string], { created_at: number; place: number }>(
    `SELECT created_at, rowid AS place FROM push_devices INDEXED BY push_devices_in_order
     WHERE app_key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  )
  const slice = db.prepare<SliceParams, PlacedRow>(SLICE)
  const sliceEnd = db.prepare<SliceParams, { created_at: number; place: number }>(
    `SELECT created_at, rowid AS place FROM push_devices INDEXED BY push_devices_in_order
     WHERE app_key = @appKey AND (created_at, rowid) > (@afterAt, @afterRow) AND (created_at, rowid) <= (@endAt, @endRow)
     ORDER BY created_at, rowid LIMIT 1 OFFSET @limit - 1`,
  )
  // The same slice, each device with its tags (sorted, joined by the unit separator, a character
  // no tag can hold: push/values.ts), read through the tags' primary key in the same pass. The
  // slice and its tags as two statements read the registry's range twice and sorted the tags:
  // half of a tag push's fan-out CPU was these reads (issue 32 point 4, profiled at SCALE=0.1).
  const sliceWithTags = db.prepare<SliceParams, PlacedRow & { tags: string | null }>(
    `SELECT d.*, (SELECT group_concat(t.tag, char(31) ORDER BY t.tag) FROM push_device_tags t
       WHERE t.app_key = d.app_key AND t.registration_id = d.registration_id) AS tags
     FROM (${SLICE}) d`,
  )
  // A broadcast's slice, as one INSERT … SELECT like `insert` below: the online devices of the
  // slice on the platforms reached, counted first (the seqs they take, from @seq on), then the rows;
  // pending ones are push work due at their expiry.
  const sliceCount = db.prepare<
    SliceParams & { platforms: string; apnsEnv: string; distributions: string; notified: string },
    { online: number }
  >(
    `SELECT coalesce(sum(go), 0) AS online FROM (SELECT *, ${ROUTED} FROM (${SLICE}))
     WHERE platform IN (SELECT value FROM json_each(@platforms))`,
  )
  const sliceInsert = writes<SliceParams & Omit<FanOutParams, 'appKey'>>(
    `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at,
       sms_due_at, sms_msg_id, sms_error, seq, alias, route, reason)
     SELECT @msgId, app_key, registration_id, platform,
       CASE WHEN go THEN 'delivered' WHEN route_ IS NULL THEN 'expired' ELSE @offline END, @expiresAt,
       CASE WHEN go THEN @now END, NULL, NULL, NULL,
       CASE WHEN go
         THEN @seq - 1 + sum(go) OVER (ORDER BY created_at, place ROWS UNBOUNDED PRECEDING) END,
       CASE WHEN go THEN alias END, route_, reason_
     FROM (SELECT *, ${ROUTED} FROM (${SLICE})) WHERE platform IN (SELECT value FROM json_each(@platforms))
     ORDER BY created_at, place`,
    {
      seq: 'push',
      seqCount: s => s.online,
      due: { query: PUSH_DUE, at: s => (s.offline === 'pending' ? s.expiresAt : null) },
    },
  )
  const range = (appKey: string, after: RegistryKey, end: RegistryKey, limit: number): SliceParams => ({
    appKey,
    afterAt: after[0],
    afterRow: after[1],
    endAt: end[0],
    endRow: end[1],
    limit,
  })

  return {
    /** The registry's last device now (a fan-out goes up to it), or undefined when it has none. */
    last(appKey: string): RegistryKey | undefined {
      const row = last.get(appKey)
      return row && [row.created_at, row.place]
    },
    /**
     * The app's devices after `after` and up to `end`, in registry order, at most `limit`;
     * `withTags`: each with its tags (one statement for the slice), else with none.
     */
    slice(
      appKey: string,
      after: RegistryKey,
      end: RegistryKey,
      limit: number,
      withTags: boolean,
    ): PlacedDevice[] {
      const params = range(appKey, after, end, limit)
      const rows: Array<PlacedRow & { tags?: string | null }> = withTags
        ? sliceWithTags.all(params)
        : slice.all(params)
      return rows.map(r => ({
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
        tags: r.tags ? r.tags.split(UNIT_SEPARATOR) : [],
        key: [r.created_at, r.place] as const,
      }))
    },
    /** The last device of a slice that has `limit` devices; undefined when it has fewer (the last slice). */
    sliceEnd(appKey: string, after: RegistryKey, end: RegistryKey, limit: number): RegistryKey | undefined {
      const row = sliceEnd.get(range(appKey, after, end, limit))
      return row && [row.created_at, row.place]
    },
    /**
     * A broadcast's deliveries to one slice of the registry (after `after`, up to `end`, at most
     * `limit` devices, those on `platforms`), as `insert` writes them for the whole registry.
     * Returns how many rows it wrote.
     */
    insertSlice(
      d: { msgId: string; appKey: string; now: number; ttl: number },
      platforms: readonly PushPlatform[],
      slice: { after: RegistryKey; end: RegistryKey; limit: number },
      routing: RouteParams,
    ): number {
      const params = {
        ...range(d.appKey, slice.after, slice.end, slice.limit),
        platforms: JSON.stringify(platforms),
        ...routeParams(routing),
      }
      const online = sliceCount.get(params)?.online ?? 0
      const expiresAt = d.now + d.ttl * 1000
      const offline = d.ttl > 0 ? 'pending' : 'expired'
      const written = sliceInsert.run({ ...params, msgId: d.msgId, now: d.now, expiresAt, offline, online })
      deliveries.added(d.appKey, written.changes)
      return written.changes
    },
    /** The devices of the app on `platforms`: how many, how many online, how many iOS (and of the other APNs environment). */
    count(
      appKey: string,
      platforms: readonly PushPlatform[],
      routing: RouteParams,
    ): { targets: number; online: number; ios: number; wrongApns: number } {
      return (
        count.get({ appKey, platforms: JSON.stringify(platforms), ...routeParams(routing) }) ?? {
          targets: 0,
          online: 0,
          ios: 0,
          wrongApns: 0,
        }
      )
    },
  }
}

export type PushFanOut = ReturnType<typeof createPushFanOut>

declare module '../../../store/index.js' {
  interface Tables {
    /** A broadcast's deliveries in one statement a slice of the registry (store.pushFanOut). */
    pushFanOut: PushFanOut
  }
}
