import { z } from 'zod'
import { invalidField } from '../../control/errors.js'
import { asField } from '../../control/schemas.js'
import { type ApnsEnvironment, type PushPlatform, VENDOR_CHANNELS, type VendorChannel } from '../../device.js'
import { isAbsent } from '../../http/body/fields.js'
import { readBy } from '../../http/schema.js'
import { NOTIFICATION_PLATFORMS } from '../send/index.js'
import { isObject, isValidTagOrAlias, isWellFormedRid, scalarText } from '../values.js'
import { readTagChanges } from './fields.js'

// What the control plane's device routes (sandbox-devices.ts) take and answer.

const isPlatform = (v: unknown): v is PushPlatform =>
  (NOTIFICATION_PLATFORMS as readonly unknown[]).includes(v)

// A device's fields by the device API's rules (never String() of a value that is not a scalar),
// refused in the control plane's words (400 90020). A body that is not an object is taken as an
// empty one.
const fields = {
  platform(v: unknown): PushPlatform {
    if (!isPlatform(v)) throw invalidField('platform', `must be one of ${NOTIFICATION_PLATFORMS.join(', ')}`)
    return v
  },
  /** Strings, or numbers taken as their text; absent: one is made for the platform. */
  registrationId(v: unknown): string | undefined {
    if (v === undefined) return undefined
    const rid = scalarText(v)
    if (rid === undefined || !isWellFormedRid(rid))
      throw invalidField('registration_id', 'must be 1 to 64 letters or digits')
    return rid
  },
  alias(v: unknown): string | null {
    if (isAbsent(v)) return null
    const alias = scalarText(v) ?? ''
    if (!isValidTagOrAlias(alias))
      throw invalidField(
        'alias',
        'must be at most 40 bytes of letters, digits, Chinese characters, _@!#$&*+=.|￥',
      )
    return alias
  },
  tags: (v: unknown): string[] =>
    v === undefined ? [] : asField('tags', () => readTagChanges({ add: v }).add),
  mobile(v: unknown): string | null {
    if (isAbsent(v)) return null
    const mobile = scalarText(v)
    if (mobile === undefined) throw invalidField('mobile', 'must be a string')
    return mobile
  },
  /** The maker's channel the phone registered with (docs/push.md "How a push reaches a phone"). */
  channel(v: unknown): VendorChannel | null | undefined {
    if (v === undefined) return undefined
    if (v === null || v === 'none') return null
    if (!(VENDOR_CHANNELS as readonly unknown[]).includes(v))
      throw invalidField('channel', `must be one of ${VENDOR_CHANNELS.join(', ')}, none`)
    return v as VendorChannel
  },
  apnsEnvironment(v: unknown): ApnsEnvironment | undefined {
    if (v === undefined) return undefined
    if (v !== 'development' && v !== 'production')
      throw invalidField('apns_environment', 'must be development or production')
    return v
  },
  online(v: unknown): boolean | undefined {
    if (v !== undefined && typeof v !== 'boolean') throw invalidField('online', 'must be true or false')
    return v
  },
}

const objectOrEmpty = (v: unknown) => (isObject(v) ? v : {})

export const pushDeviceSchemas = {
  // The docs say what each reader takes (the readers themselves cannot be shown).
  newDevice: z.preprocess(
    objectOrEmpty,
    z
      .object({
        platform: readBy(fields.platform, { type: 'string', enum: [...NOTIFICATION_PLATFORMS] }),
        registration_id: readBy(fields.registrationId, {
          type: 'string',
          description: 'Made for the platform when left out.',
        }),
        alias: readBy(fields.alias, { type: ['string', 'null'] }),
        tags: readBy(fields.tags, { type: 'array', items: { type: 'string' } }),
        mobile: readBy(fields.mobile, {
          type: ['string', 'null'],
          description: 'The mobile an SMS fallback of a push goes to.',
        }),
        channel: readBy(fields.channel, {
          type: ['string', 'null'],
          enum: [...VENDOR_CHANNELS, 'none', null],
          description: "The maker's channel the phone registered with; none/null: JPush only.",
        }),
        apns_environment: readBy(fields.apnsEnvironment, {
          type: 'string',
          enum: ['development', 'production'],
          description: 'iOS: the APNs environment of the build (production unless said).',
        }),
        online: readBy(v => v !== false, { type: 'boolean', description: 'Online unless `false`.' }),
      })
      // Every field is read by its reader (so optional to zod); platform is refused when absent.
      .meta({ required: ['platform'] }),
  ),
  rid: z.object({ registration_id: z.string() }),
  change: z.preprocess(objectOrEmpty, z.object({ online: readBy(fields.online, { type: 'boolean' }) })),
  device: z.object({
    registration_id: z.string(),
    platform: z.string(),
    alias: z.string().nullable(),
    tags: z.array(z.string()),
    mobile: z.string().nullable(),
    online: z.boolean(),
    channel: z.string().nullable(),
    apns_environment: z.string().nullable(),
    last_online_time: z.string().nullable(),
  }),
}
