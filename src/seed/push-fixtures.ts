import { type PushPlatform, twinDefaults, type VendorChannel } from '../device.js'
import type { Store } from '../store/index.js'
import type { SeedDevice } from './seed-file.js'

/**
 * Devices every new app starts with, so the vendor's curl examples (audience alias, tag,
 * registration_id) reach someone at once. All online; alias1 is one user on two phones.
 */
const DEFAULT_DEVICES: Array<{
  registrationId: string
  platform: PushPlatform
  alias: string | null
  tags: string[]
  mobile: string | null
}> = [
  {
    registrationId: '1a0018970a8b0fd6c0e',
    platform: 'android',
    alias: 'alias1',
    tags: ['tag1', 'beta'],
    mobile: '13800138000',
  },
  {
    registrationId: '1a0018970a8b0fd6c0f',
    platform: 'android',
    alias: 'alias2',
    tags: ['tag2'],
    mobile: '13800138001',
  },
  {
    registrationId: '191e35f7e07d6ea1f0e',
    platform: 'ios',
    alias: 'alias1',
    tags: ['tag1', 'vip'],
    mobile: '13800138000',
  },
  {
    registrationId: '191e35f7e07d6ea1f0f',
    platform: 'ios',
    alias: 'alias3',
    tags: ['tag2', 'beta'],
    mobile: null,
  },
]

/**
 * The app's first devices: the seed file's (`devices`, checked when the file was read:
 * push/device/seed.ts), else the fixtures.
 */
export function provisionDevices(store: Store, appKey: string, now: number, seeded?: SeedDevice[]): void {
  if (seeded) {
    for (const d of seeded) {
      // Unsaid twin fields take the platform's defaults, as a registration through the control plane does.
      const twin = twinDefaults(d.platform)
      if (d.channel !== undefined) twin.channel = d.channel as VendorChannel | null
      if (d.apns_environment !== undefined) twin.apnsEnvironment = d.apns_environment
      store.pushDevices.insert(
        {
          appKey,
          registrationId: d.registration_id,
          platform: d.platform,
          alias: d.alias,
          mobile: d.mobile,
          online: d.online,
          lastOnlineAt: d.online ? now : null,
          createdAt: now,
          ...twin,
        },
        [...new Set(d.tags)],
      )
    }
    return
  }
  for (const { tags, ...d } of DEFAULT_DEVICES) {
    // The fixtures' iOS phones take either APNs environment (apnsEnvironment null), so that the
    // SDKs' apns_production:false and the server's default both reach them; a device registered
    // through the control plane is one build's (production unless it says: route.ts).
    store.pushDevices.insert(
      { appKey, ...d, online: true, lastOnlineAt: now, createdAt: now, apnsEnvironment: null },
      tags,
    )
  }
}
