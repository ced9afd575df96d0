import { z } from 'zod'
import { readTemplateDefinition, TEMPLATE_ID, TEMPLATE_LIMITS } from '../push/templates/render.js'

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

/** Spread into the settings object of the seed file's schema. */
export const pushVariantSettings = { group: groupSetting, quota: quotaSetting }

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

/**
 * A push template of the seed file (the vendor's console makes them; docs/jpush-wire.md "Push
 * templates"): its id, a name, and a push without audience whose strings hold `{{name}}` variables.
 */
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

/** What is wrong with an app's templates: each must make a valid push once filled in; ids are unique. */
export function templateProblems(
  appKey: string,
  templates: readonly SeedPushTemplate[],
): Array<{ path: (string | number)[]; message: string }> {
  const out: Array<{ path: (string | number)[]; message: string }> = []
  const ids = new Set<string>()
  templates.forEach((t, i) => {
    if (ids.has(t.id)) out.push({ path: [i, 'id'], message: 'is given twice' })
    ids.add(t.id)
    const read = readTemplateDefinition(t, appKey)
    if ('problem' in read) out.push({ path: [i, ...read.field.split('.')], message: read.problem })
  })
  return out
}
