import { readFileSync } from 'node:fs'
import type * as Yaml from 'yaml'
import { z } from 'zod'
import type { PushPlatform } from '../device.js'
import { VENDOR_CHANNELS } from '../device.js'
import { StartRefusal } from '../errors.js'
import { lazy } from '../lazy.js'
import { DEFAULT_DEV_KEY } from './fixtures.js'
import {
  groupConflicts,
  pushPlanSchema,
  pushTemplateSchema,
  pushVariantSettings,
  repeatedTemplateIds,
} from './push-settings.js'

const yaml = lazy<typeof Yaml>('yaml')

// SANDBOX_CONFIG: an optional JSON or YAML file describing developers and apps (README
// "Seed file"). Validated once at start; a bad file stops the process with a clear message.

// The clients hold temp_id and sign_id in 32-bit ints (jsms-api.md §1.7).
const id32 = z.number().int().positive().max(2_147_483_647)
const key24 = z.string().regex(/^[A-Za-z0-9]{24}$/, 'must be 24 letters or digits')
const quota = z.number().int().min(0).nullable()
const balances = z.object({ balance: quota, voice: quota, industry: quota, market: quota }).partial().strict()

const template = z
  .object({
    temp_id: id32,
    template: z.string().min(1),
    type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    ttl: z.number().int().min(0).default(0),
    remark: z.string().default(''),
    status: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(1),
  })
  .strict()

const sign = z
  .object({
    sign_id: id32,
    sign: z.string().min(1),
    status: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(1),
    is_default: z.boolean().default(false),
  })
  .strict()

const perMinute = z.number().int().positive()
const groups = z.record(z.string(), z.array(z.string()))
/** Per-app knobs of the push API: a typo here stops the start instead of being ignored. */
const settings = z
  .object({
    rate_limits: z
      .object({ push: perMinute, device: perMinute, report: perMinute, schedule: perMinute })
      .partial()
      .strict(),
    broadcasts_per_day: z.number().int().positive(),
    /** Schedule tasks not yet over (jpush-api.md §8: 100; VIP up to 2000). */
    schedules_limit: z.number().int().positive(),
    segments: groups,
    abtests: groups,
    /**
     * The production advisor (docs/advisor.md): `header` answers each warning in an
     * `X-Sandbox-Warning` header; `strict` refuses where production refuses (STRICT_WARNINGS).
     */
    warnings: z.object({ header: z.boolean(), strict: z.boolean() }).partial().strict(),
    ...pushVariantSettings,
  })
  .partial()
  .strict()

const PLATFORMS = [
  'android',
  'ios',
  'hmos',
  'quickapp',
  'winphone',
] as const satisfies readonly PushPlatform[]

/**
 * A device of the app's registry, a twin of a phone (docs/push.md "How a push reaches a phone"):
 * what POST /_sandbox/push/devices takes. The device API's own rules (a registration_id's letters,
 * alias and tag values, 10 devices per alias, a channel that fits the platform) are the push
 * surface's, checked when the file is read (seedDeviceProblems in push/device/seed.ts).
 */
const device = z
  .object({
    registration_id: z.string(),
    platform: z.enum(PLATFORMS),
    alias: z.string().nullable().default(null),
    tags: z.array(z.string()).default([]),
    mobile: z.string().nullable().default(null),
    online: z.boolean().default(true),
    /** The maker's channel; null: JPush only; absent: the platform's default. */
    channel: z
      .enum(VENDOR_CHANNELS as [string, ...string[]])
      .nullable()
      .optional(),
    apns_environment: z.enum(['development', 'production']).optional(),
  })
  .strict()

const app = z
  .object({
    app_key: key24,
    master_secret: key24,
    dev_key: key24.optional(),
    blacklisted: z.boolean().default(false),
    sms_enabled: z.boolean().default(true),
    ip_whitelist: z.array(z.string()).default([]),
    sensitive_words: z.array(z.string().min(1)).default([]),
    unsubscribed: z.array(z.string()).default([]),
    callback_url: z.string().url().nullable().default(null),
    settings: settings.default({}),
    balances: balances.optional(),
    templates: z.array(template).optional(),
    signs: z.array(sign).optional(),
    /** JPush push templates (POST /v3/push/template) and push plans (options.business_operation_code). */
    push_templates: z.array(pushTemplateSchema).optional(),
    push_plans: z.array(pushPlanSchema).optional(),
    /** Replace the four fixture devices (push-fixtures.ts); [] for none. */
    devices: z.array(device).optional(),
  })
  .strict()

const developer = z
  .object({
    dev_key: key24,
    dev_secret: key24,
    frozen: z.boolean().default(false),
    balances: balances.optional(),
  })
  .strict()

const seedFileSchema = z
  .object({
    sensitive_words: z.array(z.string().min(1)).default([]),
    developers: z.array(developer).default([]),
    apps: z.array(app).default([]),
  })
  .strict()
  .superRefine((seed, ctx) => {
    const devs = new Set([DEFAULT_DEV_KEY, ...seed.developers.map(d => d.dev_key)])
    seed.apps.forEach((a, i) => {
      if (a.dev_key && !devs.has(a.dev_key)) {
        ctx.addIssue({ code: 'custom', path: ['apps', i, 'dev_key'], message: 'is not a known developer' })
      }
      // Without one, the app gets a developer of its own: its appKey reversed (provision.ts).
      const own = [...a.app_key].reverse().join('')
      if (!a.dev_key && devs.has(own))
        ctx.addIssue({
          code: 'custom',
          path: ['apps', i, 'dev_key'],
          message: `is required: the developer of its own (${own}, its appKey reversed) would be another's`,
        })
    })
    seed.apps.forEach((a, i) => {
      for (const j of repeatedTemplateIds(a.push_templates ?? []))
        ctx.addIssue({
          code: 'custom',
          path: ['apps', i, 'push_templates', j, 'id'],
          message: 'is given twice',
        })
      const plans = (a.push_plans ?? []).map(p => p.name)
      plans.forEach((name, j) => {
        if (plans.indexOf(name) !== j)
          ctx.addIssue({
            code: 'custom',
            path: ['apps', i, 'push_plans', j, 'name'],
            message: 'is given twice',
          })
      })
    })
    for (const i of groupConflicts(seed.apps)) {
      const path = ['apps', i, 'settings', 'group', 'master_secret']
      ctx.addIssue({ code: 'custom', path, message: 'differs from another member of the same group' })
    }
  })

export type SeedFile = z.infer<typeof seedFileSchema>
export type SeedApp = z.infer<typeof app>
export type SeedDevice = z.infer<typeof device>

// One schema, two uses: PATCH /_sandbox/app takes the keys of an `apps[]` entry (and its
// developer's standing and balances) by these same rules, each optional and without the file's
// defaults, so that a key left out is left as it is.

type PatchShape<S extends z.ZodRawShape> = {
  [K in keyof S]: z.ZodOptional<S[K] extends z.ZodDefault<infer Inner> ? Inner : S[K]>
}

function patchOf<S extends z.ZodRawShape>(shape: S): z.ZodObject<PatchShape<S>, z.core.$strict> {
  const fields = Object.entries(shape).map(([key, field]) => [
    key,
    z.optional(field instanceof z.ZodDefault ? field.unwrap() : field),
  ])
  return z.object(Object.fromEntries(fields) as PatchShape<S>).strict()
}

/** What PATCH /_sandbox/app may change: an app's settings and balances, its developer's standing. */
export const appPatchSchema = patchOf(
  app.omit({
    app_key: true,
    master_secret: true,
    dev_key: true,
    templates: true,
    signs: true,
    push_templates: true,
    push_plans: true,
    devices: true,
  }).shape,
).extend({ developer: patchOf(developer.pick({ frozen: true, balances: true }).shape).optional() })

export type AppPatch = z.output<typeof appPatchSchema>

/**
 * A check of the whole file by a surface's own rules (the surfaces stand above the seed, which
 * knows only how the file is written): what it finds refuses the start as the schema's issues do.
 */
export type SeedCheck = (seed: SeedFile) => Array<{ path: (string | number)[]; message: string }>

export function readSeedFile(path: string, checks: readonly SeedCheck[] = []): SeedFile {
  const refuse = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) => {
    const lines = issues.map(i => `${i.path.map(String).join('.')}: ${i.message}`)
    return new StartRefusal(`invalid SANDBOX_CONFIG ${path}: ${lines.join('; ')}`)
  }
  const parsed = seedFileSchema.safeParse(parseSeedText(path) ?? {})
  if (!parsed.success) throw refuse(parsed.error.issues)
  const issues = checks.flatMap(check => check(parsed.data))
  if (issues.length > 0) throw refuse(issues)
  return parsed.data
}

/** The file's YAML or JSON; an unreadable or unparsable file is the operator's to fix, in one line. */
function parseSeedText(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error'
    throw new StartRefusal(
      `SANDBOX_CONFIG ${path} cannot be read (${code}): give the path of a readable YAML or JSON file`,
    )
  }
  try {
    return /\.ya?ml$/i.test(path) ? yaml().parse(text) : JSON.parse(text)
  } catch (err) {
    const why = (err as Error).message.split('\n')[0]
    throw new StartRefusal(
      `SANDBOX_CONFIG ${path} is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${why}`,
    )
  }
}

export const emptySeed: SeedFile = { sensitive_words: [], developers: [], apps: [] }
