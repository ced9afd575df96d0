import { nationalMobile } from '../mobile.js'
import type { Store } from '../store/index.js'
import {
  DEFAULT_APP_BALANCES,
  DEFAULT_APP_KEY,
  DEFAULT_DEV_BALANCES,
  DEFAULT_DEV_KEY,
  DEFAULT_DEV_SECRET,
  DEFAULT_MASTER_SECRET,
  DEFAULT_SENSITIVE_WORDS,
  DEFAULT_SIGN,
  DEFAULT_TEMPLATES,
} from './fixtures.js'
import { provisionDevices } from './push-fixtures.js'
import { variablesOf } from './push-settings.js'
import type { SeedApp, SeedFile } from './seed-file.js'

// Sends look mobiles up in national form (sms/fields.ts), so the seed's are stored that way.
const asStored = (mobile: string) => nationalMobile(mobile) ?? mobile

const CREDENTIAL = /^[A-Za-z0-9]{24}$/

/** The official clients refuse anything else (jsms-api.md §1.2), so auto-provisioning does too. */
export function isWellFormedCredential(value: string): boolean {
  return CREDENTIAL.test(value)
}

const reversed = (s: string) => [...s].reverse().join('')

/**
 * The developer account of an auto-provisioned app: its appKey and masterSecret reversed, so a
 * test computes it without a call. Only the masterSecret's owner learns the devSecret, and a
 * developer's credentials only read its balances (GET /v1/accounts/dev): spending takes an app's.
 */
export function ownDeveloperOf(appKey: string, masterSecret: string): { devKey: string; devSecret: string } {
  return { devKey: reversed(appKey), devSecret: reversed(masterSecret) }
}

/**
 * The developer of a seed-file app: the one its `dev_key` names, else one of its own, made as an
 * auto-provisioned app's is (ownDeveloperOf). The default developer's credentials are public: an
 * app that shared it could be deleted (Admin API) or frozen (PATCH /_sandbox/app `developer`) by
 * anyone holding them, that is by every tenant.
 */
export function seedDeveloperOf(a: Pick<SeedApp, 'app_key' | 'master_secret' | 'dev_key'>): {
  devKey: string
  /** The developer made for the app alone (no `dev_key`): its devSecret. */
  ownSecret?: string
} {
  if (a.dev_key) return { devKey: a.dev_key }
  const own = ownDeveloperOf(a.app_key, a.master_secret)
  return { devKey: own.devKey, ownSecret: own.devSecret }
}

/** Makes (or keeps, its balances and standing as they are) the developer of its own of a seed app. */
export function saveSeedDeveloper(store: Store, a: SeedApp): string {
  const { devKey, ownSecret } = seedDeveloperOf(a)
  if (ownSecret !== undefined) {
    const frozen = store.apps.developer(devKey)?.frozen ?? false
    store.apps.saveDeveloper({ devKey, devSecret: ownSecret, frozen, balances: DEFAULT_DEV_BALANCES })
  }
  return devKey
}

/**
 * An app created by its first request, with a developer account of its own (ownDeveloperOf): no
 * tenant spends another's developer balance. The caller makes sure that developer is new. It
 * expires once idle for AUTO_PROVISION_IDLE_MS (app-expiry.ts).
 */
export function autoProvisionApp(store: Store, appKey: string, masterSecret: string, now: number): void {
  const developer = ownDeveloperOf(appKey, masterSecret)
  store.transaction(() => {
    store.apps.saveDeveloper({ ...developer, frozen: false, balances: DEFAULT_DEV_BALANCES })
    provisionApp(store, { appKey, masterSecret, devKey: developer.devKey }, now)
    store.activity.expiresWhenIdle(appKey, now)
  })
}

/** A new app with the default fixtures: signature 1, templates 1–5, balances that allow real use. */
export function provisionApp(
  store: Store,
  app: { appKey: string; masterSecret: string; devKey?: string | undefined },
  now: number,
  seed?: SeedApp,
): void {
  store.transaction(() => {
    store.apps.insert(
      {
        appKey: app.appKey,
        masterSecret: app.masterSecret,
        devKey: app.devKey ?? DEFAULT_DEV_KEY,
        blacklisted: seed?.blacklisted ?? false,
        smsEnabled: seed?.sms_enabled ?? true,
        ipWhitelist: seed?.ip_whitelist ?? [],
        sensitiveWords: seed?.sensitive_words ?? [],
        callbackUrl: seed?.callback_url ?? null,
        settings: seed?.settings ?? {},
        clockOffsetMs: 0,
        balances: { ...DEFAULT_APP_BALANCES, ...seed?.balances },
      },
      now,
    )
    const signs = seed?.signs?.map(s => ({
      signId: s.sign_id,
      sign: s.sign,
      type: null,
      remark: '',
      status: s.status,
      isDefault: s.is_default,
    })) ?? [{ ...DEFAULT_SIGN, status: 1 as const, isDefault: true }]
    for (const s of signs) {
      store.signs.insert({ appKey: app.appKey, images: 0, refuseReason: null, reviewAt: null, ...s }, now)
    }
    const templates =
      seed?.templates?.map(t => ({
        tempId: t.temp_id,
        template: t.template,
        type: t.type,
        ttl: t.ttl,
        remark: t.remark,
        status: t.status,
        refuseReason: null,
      })) ?? DEFAULT_TEMPLATES
    for (const t of templates) store.templates.insert({ appKey: app.appKey, reviewAt: null, ...t }, now)
    // The ids the app allocates later come from global sequences: never one the seed gave.
    store.sequences.skipPast('temp_id', Math.max(0, ...templates.map(t => t.tempId)))
    store.sequences.skipPast('sign_id', Math.max(0, ...signs.map(s => s.signId)))
    for (const mobile of seed?.unsubscribed ?? []) store.unsubscribed.add(app.appKey, asStored(mobile), now)
    provisionDevices(store, app.appKey, now, seed?.devices)
    provisionPushResources(store, app.appKey, seed, now)
  })
}

/** The seed file's push templates and push plans of the app (the console's, send_source 1). */
function provisionPushResources(store: Store, appKey: string, seed: SeedApp | undefined, now: number): void {
  // Each was checked when the file was read (seedTemplateProblems in push/templates/render.ts).
  for (const t of seed?.push_templates ?? [])
    store.pushTemplates.save({
      appKey,
      templateId: t.id,
      name: t.name,
      params: [...variablesOf(t.push)],
      push: t.push,
      createdAt: now,
      updatedAt: now,
    })
  for (const p of seed?.push_plans ?? [])
    store.pushPlans.insert({
      appKey,
      name: p.name,
      description: p.description,
      sendSource: 1,
      createdAt: now,
    })
}

/**
 * Runs at every start. The default developer and app are created once; so are the seed file's
 * apps, with their balances, templates and signatures. The seed file's flags (blacklist, IP
 * whitelist, callback URL…) are re-applied on every start so editing the file takes effect, while
 * what the app did since (balances spent, templates added) is kept.
 */
export function applySeed(store: Store, seed: SeedFile, now: number): { sensitiveWords: string[] } {
  store.transaction(() => {
    store.apps.saveDeveloper({
      devKey: DEFAULT_DEV_KEY,
      devSecret: DEFAULT_DEV_SECRET,
      frozen: false,
      balances: DEFAULT_DEV_BALANCES,
    })
    for (const d of seed.developers) {
      store.apps.saveDeveloper({
        devKey: d.dev_key,
        devSecret: d.dev_secret,
        frozen: d.frozen,
        balances: { ...DEFAULT_DEV_BALANCES, ...d.balances },
      })
    }
    if (!store.apps.get(DEFAULT_APP_KEY) && !seed.apps.some(a => a.app_key === DEFAULT_APP_KEY)) {
      provisionApp(store, { appKey: DEFAULT_APP_KEY, masterSecret: DEFAULT_MASTER_SECRET }, now)
    }
    for (const a of seed.apps) {
      const existing = store.apps.get(a.app_key)
      const devKey = saveSeedDeveloper(store, a)
      if (!existing) {
        provisionApp(store, { appKey: a.app_key, masterSecret: a.master_secret, devKey }, now, a)
        continue
      }
      // An app seeded before it had a developer of its own moves to it.
      store.apps.updateSettings({
        ...existing,
        masterSecret: a.master_secret,
        devKey,
        blacklisted: a.blacklisted,
        smsEnabled: a.sms_enabled,
        ipWhitelist: a.ip_whitelist,
        sensitiveWords: a.sensitive_words,
        callbackUrl: a.callback_url,
        settings: a.settings,
      })
      for (const mobile of a.unsubscribed) store.unsubscribed.add(a.app_key, asStored(mobile), now)
    }
  })
  return { sensitiveWords: [...DEFAULT_SENSITIVE_WORDS, ...seed.sensitive_words] }
}
