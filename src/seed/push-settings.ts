import { z } from 'zod'

// The per-app settings of the push variants (jpush-api.md §5.14), in the seed file's `settings`
// and wherever the control plane sets an app's settings: one schema for both.

const key24 = z.string().regex(/^[A-Za-z0-9]{24}$/, 'must be 24 letters or digits')

/**
 * The group of apps a group push reaches (`group-<group_key>:<master_secret>`): each member names
 * it. 24 letters or digits each, as the Node and Java clients require of any key and secret.
 */
export const groupSetting = z.object({ group_key: key24, master_secret: key24 }).strict()

// total/used of one kind of vendor message; -1 is "unlimited" (jsdk QuotaGetResult, cav).
const count = z.number().int().min(-1)
const vendorQuota = z
  .object({
    system: z.object({ total: count, used: count }).strict(),
    operation: z.object({ total: count, used: count }).strict(),
  })
  .partial()
  .strict()

/** GET /v3/push/quota answers these; what is left out is -1 (unlimited). */
export const quotaSetting = z
  .object({ xiaomi_quota: vendorQuota, oppo_quota: vendorQuota, vivo_quota: vendorQuota })
  .partial()
  .strict()

/**
 * How the push host reads a body. `strict_types`: a number or boolean sent as a string
 * (`"time_to_live": "60"`) is refused with 1003 instead of read as Jackson reads it (the default,
 * push/send/coerce.ts).
 */
export const pushReadingSetting = z
  .object({ strict_types: z.boolean().describe('Refuse numbers and booleans sent as strings (1003).') })
  .partial()
  .strict()

/** Spread into the settings object of the seed file's schema. */
export const pushVariantSettings = { group: groupSetting, quota: quotaSetting, push: pushReadingSetting }

export type GroupSetting = z.infer<typeof groupSetting>

/**
 * Members of one group must agree on its secret: two secrets for one group_key in a seed file are
 * a typo, refused at start (at run time a group is its key and secret together).
 */
export function groupConflicts(apps: ReadonlyArray<{ settings: { group?: GroupSetting | undefined } }>) {
  const secrets = new Map<string, string>()
  const conflicts: number[] = []
  apps.forEach((a, i) => {
    const g = a.settings.group
    if (!g) return
    const known = secrets.get(g.group_key)
    if (known === undefined) secrets.set(g.group_key, g.master_secret)
    else if (known !== g.master_secret) conflicts.push(i)
  })
  return conflicts
}

// Push templates (docs/jpush-wire.md "Push templates") are defined where the vendor's console
// would define them: the seed file and the control plane. What a definition is written as lives
// here; whether its push is valid once filled in is the push surface's to say (render.ts).

/** A variable of a template's push: `{{name}}`, in any string, keys included. */
export const TEMPLATE_VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g
/** A template id, as the vendor's read (`c65b34b96512`): letters and digits. */
export const TEMPLATE_ID = /^[A-Za-z0-9]{1,32}$/

export const TEMPLATE_LIMITS = {
  /** The sandbox's bound per app (docs/reliability.md); the vendor documents none. */
  perApp: 200,
  nameChars: 100,
} as const

/** Every variable a push names, in the order they first appear. */
export function variablesOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(TEMPLATE_VARIABLE)) into.add(m[1]!)
  else if (Array.isArray(value)) for (const v of value) variablesOf(v, into)
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) {
      variablesOf(k, into)
      variablesOf(v, into)
    }
  return into
}

/** A push template of the seed file: its id, a name, and a push without audience. */
export const pushTemplateSchema = z
  .object({
    id: z.string().regex(TEMPLATE_ID, 'must be 1 to 32 letters or digits'),
    name: z.string().min(1).max(TEMPLATE_LIMITS.nameChars),
    push: z.record(z.string(), z.unknown()),
    params: z.array(z.string()).optional(),
  })
  .strict()

/** A push plan of the seed file: made as the console makes them (send_source 1). */
export const pushPlanSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_]{0,49}$/, 'letters, digits and _, not starting with _, at most 50'),
    description: z.string().max(1000).default(''),
  })
  .strict()

export type SeedPushTemplate = z.infer<typeof pushTemplateSchema>

/** The template ids an app's list gives twice, by index (the push in each is render.ts's to judge). */
export function repeatedTemplateIds(templates: readonly SeedPushTemplate[]): number[] {
  return templates.flatMap((t, i) => (templates.findIndex(o => o.id === t.id) !== i ? [i] : []))
}
