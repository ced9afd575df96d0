import type { z } from 'zod'
import type { Courier } from '../../callbacks/courier.js'
import type { Clock } from '../../clock.js'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import { readBy } from '../../http/schema.js'
import { nationalMobile } from '../../mobile.js'
import { type AppPatch, appPatchSchema } from '../../seed/seed-file.js'
import type { Store } from '../../store/index.js'
import { appEventData } from './view.js'

// PATCH /_sandbox/app: the seed file's rules for an `apps[]` entry (seed-file.ts, one schema for
// both), plus a plain refusal for the keys that exist there but cannot change at runtime.

// `not: {}`: no value is taken, as the document says (a generated client types the key `never`).
const readOnly = (key: string, how: string) =>
  readBy(
    v => {
      if (v !== undefined) throw invalidField(key, `cannot be changed: ${how}`)
      return undefined
    },
    { not: {}, description: `Cannot be changed: ${how}.` },
  )

const developerPatch = appPatchSchema.shape.developer.unwrap().extend({
  dev_key: readOnly('developer.dev_key', 'it names the developer account'),
  dev_secret: readOnly('developer.dev_secret', 'it is set where the developer is defined'),
})

export const patchBody = appPatchSchema.extend({
  app_key: readOnly('app_key', 'use another appKey (a new one is provisioned at its first request)'),
  master_secret: readOnly('master_secret', 'DELETE /_sandbox/app, then call with the new secret'),
  dev_key: readOnly('dev_key', 'an app keeps its developer account'),
  templates: readOnly('templates', 'use /v1/templates and /_sandbox/sms/templates/{temp_id}/review'),
  signs: readOnly('signs', 'use /v1/sign and /_sandbox/sms/signs/{sign_id}/review'),
  clock: readOnly('clock', 'move it with POST /_sandbox/clock; POST /_sandbox/reset sets it back'),
  developer: developerPatch.optional(),
})

type Settings = Record<string, unknown>

/**
 * Objects with fixed keys merge (`settings`, its `rate_limits`, `push` and `warnings`, `balances`, `developer`): a key
 * left out keeps its value. Everything else is replaced whole: flags, lists (`ip_whitelist`,
 * `unsubscribed`…), `segments` and `abtests`, and `callback_url` (null removes it).
 */
function mergeSettings(current: Settings, patch: AppPatch['settings']): Settings {
  if (!patch) return current
  const merged: Settings = { ...current, ...patch }
  if (patch.rate_limits) merged.rate_limits = { ...(current.rate_limits as Settings), ...patch.rate_limits }
  if (patch.push) merged.push = { ...(current.push as Settings), ...patch.push }
  if (patch.warnings) merged.warnings = { ...(current.warnings as Settings), ...patch.warnings }
  return merged
}

/**
 * Applies a PATCH at once and durably, with an app.changed event (the app as GET shows it after).
 * A new callback_url must pass the vendor's URL check first (a GET with `echostr`, url-check.ts):
 * a receiver that fails it changes nothing.
 */
export async function applyPatch(
  deps: { store: Store; courier: Courier; clock: Clock },
  appKey: string,
  patch: z.output<typeof patchBody>,
  now: number,
): Promise<void> {
  const { store } = deps
  if (patch.callback_url) {
    const why = await deps.courier.checkUrl(patch.callback_url)
    if (why) throw sandboxErrors.callbackCheckFailed(`"callback_url": the vendor's URL check failed: ${why}`)
  }
  await store.write({ announces: ['app.changed'] }, () => {
    const app = store.apps.get(appKey)
    if (!app) throw sandboxErrors.authFailed() // removed since this request authenticated
    store.apps.updateSettings({
      ...app,
      blacklisted: patch.blacklisted ?? app.blacklisted,
      smsEnabled: patch.sms_enabled ?? app.smsEnabled,
      ipWhitelist: patch.ip_whitelist ?? app.ipWhitelist,
      sensitiveWords: patch.sensitive_words ?? app.sensitiveWords,
      callbackUrl: patch.callback_url === undefined ? app.callbackUrl : patch.callback_url,
      settings: mergeSettings(app.settings, patch.settings),
    })
    if (patch.balances) store.apps.setBalances(appKey, { ...store.apps.balances(appKey)!, ...patch.balances })
    if (patch.unsubscribed) {
      const mobiles = patch.unsubscribed.map(m => nationalMobile(m) ?? m)
      store.unsubscribed.replace(appKey, mobiles, now)
    }
    const { developer } = patch
    const own = store.apps.developer(app.devKey)
    if (developer && own) {
      if (developer.frozen !== undefined) store.apps.saveDeveloper({ ...own, frozen: developer.frozen })
      if (developer.balances) {
        const current = store.apps.developerBalances(app.devKey)!
        store.apps.setDeveloperBalances(app.devKey, { ...current, ...developer.balances })
      }
    }
    store.events.append({ appKey, type: 'app.changed', data: appEventData(deps, appKey), at: now })
  })
}
