import { createHash, randomBytes } from 'node:crypto'
import { z } from 'zod'
import type { AppResets } from '../app-resets.js'
import type { Clock } from '../clock.js'
import { appNow } from '../clock.js'
import type { Hub } from '../events/hub.js'
import { field, jsonBody, type ObjectReader, params } from '../http/reads.js'
import { type RouteSpec, vendorRoute } from '../http/routes.js'
import { type ProvisioningGuard, ProvisioningRefused } from '../limits/provisioning.js'
import { provisionApp } from '../seed/provision.js'
import { reprovision } from '../seed/reprovision.js'
import type { SeedFile } from '../seed/seed-file.js'
import type { App } from '../store/apps/apps.js'
import type { Store } from '../store/index.js'
import { certificateForm, checkCertificate } from './certificates.js'
import { adminErrors as e } from './errors.js'

// The JPush Admin API v1 (docs/jpush-wire.md "Admin API"; the vendor's rest_api_admin_api_v1; py
// Admin, the Java AdminClient, cav admin/*.go), authenticated with the developer's devKey:devSecret.
// Creating an app makes a working appKey:masterSecret pair in this sandbox, with the default
// fixtures of any new app; deleting removes it (an app of the seed file, or the default app, comes
// back as it was, as after DELETE /_sandbox/app); a certificate upload is checked and kept.

type Deps = {
  store: Store
  clock: Clock
  seed: SeedFile
  appResets: AppResets
  hub: Hub
  provisioning: ProvisioningGuard
}

const SYNCHRONIZED = { success: 'Synchronized success' } as const
const done = z.object({ success: z.literal('Synchronized success') })

const adminObject: ObjectReader = {
  read(body) {
    if (body === undefined || body === null) throw e.missing('app_name')
    if (typeof body !== 'object' || Array.isArray(body)) throw e.invalid('body')
    return body as Record<string, unknown>
  },
  errors: [e.missing('app_name'), e.invalid('body')],
}

const text = (name: string, required: boolean, max: number) =>
  field({
    read(value): string | undefined {
      if (value === undefined || value === null || value === '') {
        if (required) throw e.missing(name)
        return undefined
      }
      if (typeof value !== 'string' || [...value].length > max) throw e.invalid(name)
      return value
    },
    schema: required ? z.string().max(max) : z.string().max(max).optional(),
    errors: required ? [e.missing(name), e.invalid(name)] : [e.invalid(name)],
  })

/** "目前仅校验 android_package": a Java package name, two segments at least. */
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/

const androidPackage = field({
  read(value): string {
    if (value === undefined || value === null || value === '') throw e.missing('android_package')
    if (typeof value !== 'string' || value.length > 255 || !PACKAGE.test(value))
      throw e.invalid('android_package')
    return value
  },
  schema: z.string().describe('The Android package: a Java package name such as `cn.jpush.app`.'),
  errors: [e.missing('android_package'), e.invalid('android_package')],
})

const createBody = jsonBody(adminObject, {
  app_name: text('app_name', true, 100),
  android_package: androidPackage,
  group_name: text('group_name', false, 100),
})

/** A key of 24 hex digits, as the clients require of appKeys and secrets (jpush-api.md §2). */
const newKey = () => randomBytes(12).toString('hex')
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24)

/**
 * The group an app created with a `group_name` joins: one per developer and name, its key and
 * master secret derived from them (the secret from the devSecret, so only the developer can
 * know it); GET /_sandbox/push/group shows it to each member app.
 */
export function groupOfName(devKey: string, devSecret: string, name: string) {
  return {
    group_key: digest(`group:${devKey}:${name}`),
    master_secret: digest(`group-secret:${devSecret}:${name}`),
  }
}

const appKeyParams = params({ app_key: { read: v => v as string, schema: z.string(), errors: [] } })

export function adminRoutes(deps: Deps): RouteSpec[] {
  const { store, clock } = deps
  /** The developer's app of that appKey, or 1013 (an app of another developer is not one of theirs). */
  const ownApp = (devKey: string, appKey: string): App => {
    const app = store.apps.get(appKey)
    if (!app || app.devKey !== devKey) throw e.appKeyInvalid()
    return app
  }
  const remove = async (devKey: string, appKey: string) => {
    const recreated = await store.write(() => {
      const app = ownApp(devKey, appKey)
      return reprovision(deps, app, clock.now(), { remove: true })
    })
    if (!recreated) deps.hub.appRemoved(appKey)
    return SYNCHRONIZED
  }
  const deleteRoute = (method: 'POST' | 'DELETE') =>
    vendorRoute({
      method,
      url: '/v1/app/:app_key/delete',
      summary:
        method === 'POST'
          ? 'Delete one of the developer\'s apps (docs/jpush-wire.md "Admin API")'
          : 'Delete an app, as the Java AdminClient sends it (docs/jpush-wire.md "Admin API")',
      description:
        'Its rows go, in every table; an app of the seed file or the default app comes back as it was ' +
        '(DELETE /_sandbox/app). Another developer’s app, or none: HTTP 200 with error 1013.',
      config: { auth: 'dev' },
      reads: { params: appKeyParams },
      checks: [e.appKeyInvalid()],
      answer: done,
      handler: async (req, { params }) => remove(req.devKey!, params.app_key),
    })

  return [
    vendorRoute({
      method: 'POST',
      url: '/v1/app',
      summary: 'Create an app under the developer account (docs/jpush-wire.md "Admin API")',
      description:
        'A new appKey:masterSecret pair that works at once on /v1, /v3 and /_sandbox, with the default ' +
        'fixtures (devices, templates, signature). The same android_package again answers that app ' +
        '(`is_new_created: false`). A `group_name` joins the developer’s group of that name (group push).',
      config: { auth: 'dev' },
      reads: { body: createBody },
      checks: [e.appRefused('the sandbox already holds 10000 apps, its limit (AUTO_PROVISION_MAX_APPS)')],
      answer: z.object({
        app_key: z.string(),
        is_new_created: z.boolean(),
        android_package: z.string(),
        master_secret: z.string().describe('With the appKey, the app’s credentials (cav AppCreateResult).'),
      }),
      handler: async (req, { body }) => {
        const devKey = req.devKey!
        const developer = store.apps.developer(devKey)!
        const now = clock.now()
        return store.write(() => {
          const known = store.admin.byPackage(devKey, body.android_package)
          const app = known && store.apps.get(known.appKey)
          if (app)
            return {
              app_key: app.appKey,
              is_new_created: false,
              android_package: body.android_package,
              master_secret: app.masterSecret,
            }
          let appKey = newKey()
          while (store.apps.get(appKey) || store.apps.developer(appKey)) appKey = newKey()
          const masterSecret = newKey()
          try {
            deps.provisioning.admit(
              req.ip,
              now,
              () => store.apps.count(),
              () => provisionApp(store, { appKey, masterSecret, devKey }, now),
            )
          } catch (err) {
            if (err instanceof ProvisioningRefused) throw e.appRefused(err.reason)
            throw err
          }
          const made = store.apps.get(appKey)!
          if (body.group_name !== undefined)
            store.apps.updateSettings({
              ...made,
              settings: {
                ...made.settings,
                group: groupOfName(devKey, developer.devSecret, body.group_name),
              },
            })
          store.admin.insertProfile({
            appKey,
            appName: body.app_name!,
            androidPackage: body.android_package,
            groupName: body.group_name ?? null,
            createdAt: now,
          })
          return {
            app_key: appKey,
            is_new_created: true,
            android_package: body.android_package,
            master_secret: masterSecret,
          }
        })
      },
    }),
    deleteRoute('POST'),
    deleteRoute('DELETE'),
    vendorRoute({
      method: 'POST',
      url: '/v1/app/:app_key/certificate',
      summary: 'Upload an app\'s APNs certificates (docs/jpush-wire.md "Admin API")',
      description:
        'A form of `devCertificateFile`/`devCertificatePassword` and/or `proCertificateFile`/`proCertificatePassword`: ' +
        'PKCS#12 files that open with their password, Apple push certificates of that environment, valid on the ' +
        'app’s clock. Kept (GET /_sandbox/app/certificates); the same file again is 1010. Refusals: HTTP 200 with ' +
        'error 1012, 1013, 1014.',
      config: { auth: 'dev' },
      reads: { params: appKeyParams },
      checks: [
        e.appKeyInvalid(),
        certificateForm,
        e.certificateInvalid('devCertificateFile is no PKCS#12 file that opens with its password'),
        e.certificateExists(),
      ],
      answer: done,
      handler: async (req, { params }) => {
        const app = ownApp(req.devKey!, params.app_key)
        const uploads = await certificateForm.read(req)
        const now = appNow(clock, app)
        const checked = uploads.map(c => ({ ...c, info: checkCertificate(c, now) }))
        await store.write(() => {
          const kept = store.admin.certificates(app.appKey)
          for (const c of checked)
            if (kept.some(k => k.environment === c.environment && k.bytes.equals(c.bytes)))
              throw e.certificateExists()
          for (const c of checked)
            store.admin.saveCertificate({
              appKey: app.appKey,
              environment: c.environment,
              fileName: c.fileName,
              bytes: c.bytes,
              subject: c.info.subject,
              bundleId: c.info.bundleId,
              notAfter: c.info.notAfter,
              uploadedAt: now,
            })
        })
        return SYNCHRONIZED
      },
    }),
  ]
}
