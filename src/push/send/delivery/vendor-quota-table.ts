import type { Engine } from '../../../store/engine/index.js'

/** The vendors whose daily quotas GET /v3/push/quota reports (cav v3_get_quota.go). */
export type QuotaVendor = 'xiaomi' | 'oppo' | 'vivo'
export const QUOTA_VENDORS: readonly QuotaVendor[] = ['xiaomi', 'oppo', 'vivo']
/** System and operation (marketing) messages have quotas of their own (options.classification). */
export type QuotaKind = 'system' | 'operation'

/** What each vendor's quota has given on one day of an app (migration 023). */
export function createVendorQuotaStore({ db }: Engine) {
  const usedOn = db.prepare<{ appKey: string; day: string }, { vendor: string; kind: string; used: number }>(
    'SELECT vendor, kind, used FROM push_vendor_quota WHERE app_key = @appKey AND day_key = @day',
  )
  const take = db.prepare<{ appKey: string; day: string; vendor: string; kind: string; n: number }>(
    `INSERT INTO push_vendor_quota (app_key, day_key, vendor, kind, used) VALUES (@appKey, @day, @vendor, @kind, @n)
     ON CONFLICT (app_key, day_key, vendor, kind) DO UPDATE SET used = used + excluded.used`,
  )
  return {
    /** What each vendor and kind has given on `day` (one statement: a few rows). */
    usedOn(appKey: string, day: string): Map<`${QuotaVendor}.${QuotaKind}`, number> {
      return new Map(
        usedOn
          .all({ appKey, day })
          .map(r => [`${r.vendor}.${r.kind}` as `${QuotaVendor}.${QuotaKind}`, r.used]),
      )
    },
    take(appKey: string, day: string, vendor: QuotaVendor, kind: QuotaKind, n: number): void {
      if (n > 0) take.run({ appKey, day, vendor, kind, n })
    },
  }
}

export type VendorQuotaStore = ReturnType<typeof createVendorQuotaStore>

declare module '../../../store/index.js' {
  interface Tables {
    /** What each vendor's daily quota has given (store.pushVendorQuota): GET /v3/push/quota, the routes. */
    pushVendorQuota: VendorQuotaStore
  }
}
