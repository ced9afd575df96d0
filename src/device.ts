// What a JPush device is, as a phone registers it (jpush-api.md §7; docs/push.md "How a push
// reaches a phone"): its platform, its maker's channel, its APNs environment, and its shape. No
// SQL: the registry's table is push/device's (devices-table.ts), and push/send's fan-out reads
// the same rows in slices (delivery/fan-out-table.ts), so the shape both make is here, below the
// features, with the words that the seed file, the advisor, the change items and an app's
// document read too (none of them may import a feature).

export type PushPlatform = 'android' | 'ios' | 'hmos' | 'quickapp' | 'winphone'

/**
 * The phone maker's channel a device registered with (migration 023): the Android vendors and
 * FCM, and HarmonyOS's Push Kit; null: the JPush connection only.
 */
export type VendorChannel = 'huawei' | 'honor' | 'xiaomi' | 'oppo' | 'vivo' | 'meizu' | 'fcm' | 'hmos'
export const VENDOR_CHANNELS: readonly VendorChannel[] = [
  'huawei',
  'honor',
  'xiaomi',
  'oppo',
  'vivo',
  'meizu',
  'fcm',
  'hmos',
]
/** The APNs environment an iOS build registered in (development builds: the sandbox gateway). */
export type ApnsEnvironment = 'development' | 'production'

/** A device as a phone app registering with JPush would create it. */
export interface Device {
  appKey: string
  registrationId: string
  platform: PushPlatform
  alias: string | null
  mobile: string | null
  online: boolean
  lastOnlineAt: number | null
  createdAt: number
  tags: string[]
  /** The maker's channel (Android, HarmonyOS); null: JPush only. */
  channel: VendorChannel | null
  /** iOS only: the APNs environment of its build; null on other platforms. */
  apnsEnvironment: ApnsEnvironment | null
}

/**
 * A row of the registry (`push_devices`, migrations 003, 023) as SQLite answers it: the registry's
 * table (push/device) and a broadcast's slices (push/send's fan-out) both read it into a `Device`.
 */
export interface DeviceRow {
  app_key: string
  registration_id: string
  platform: string
  alias: string | null
  mobile: string | null
  online: number
  last_online_at: number | null
  created_at: number
  channel: string | null
  apns_environment: string | null
}

/** Whether a phone of `platform` can have registered with `channel` (null: JPush only, any platform). */
export function channelFits(platform: PushPlatform, channel: VendorChannel | null): boolean {
  return (
    channel === null ||
    (platform === 'hmos' ? channel === 'hmos' : platform === 'android' && channel !== 'hmos')
  )
}

/**
 * What a device registered without saying is: an iOS device a production build (what a push
 * without apns_production reaches: jpush-api.md §5.7), a HarmonyOS device on its Push Kit, any
 * other on the JPush connection only (docs/push.md "How a push reaches a phone").
 */
export function twinDefaults(platform: PushPlatform): {
  channel: VendorChannel | null
  apnsEnvironment: ApnsEnvironment | null
} {
  return {
    channel: platform === 'hmos' ? 'hmos' : null,
    apnsEnvironment: platform === 'ios' ? 'production' : null,
  }
}
