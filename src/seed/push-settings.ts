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
