import type { Engine } from '../../store/engine/index.js'

/** 0: created through the API; 1: "web", the vendor's console (here the seed file or control plane). */
export type SendSource = 0 | 1

/** A push plan and what the pushes naming it add up to. */
export interface PushPlan {
  appKey: string
  name: string
  description: string
  sendSource: SendSource
  createdAt: number
  /** Pushes that named it in options.business_operation_code. */
  pushCount: number
  lastUsedAt: number | null
}

interface Row {
  app_key: string
  name: string
  description: string
  send_source: number
  created_at: number
  push_count: number
  last_used_at: number | null
}

const toPlan = (r: Row): PushPlan => ({
  appKey: r.app_key,
  name: r.name,
  description: r.description,
  sendSource: r.send_source as SendSource,
  createdAt: r.created_at,
  pushCount: r.push_count,
  lastUsedAt: r.last_used_at,
})

// The counts come from the pushes themselves (pushes.plan, indexed where set): nothing on the push
// path writes a counter.
const SELECT = `SELECT p.*, count(x.msg_id) AS push_count, max(x.created_at) AS last_used_at
  FROM push_plans p LEFT JOIN pushes x ON x.app_key = p.app_key AND x.plan = p.name`

export interface PlanFilter {
  /** Part of the name or of the description (the vendor's `info`). */
  info?: string | undefined
  sendSource?: SendSource | undefined
}

/** Push plans of each app (POST /v3/push_plan/create…), counted by the pushes that name them. */
export function createPushPlanStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO push_plans (app_key, name, description, send_source, created_at)
     VALUES (@appKey, @name, @description, @sendSource, @createdAt)`,
  )
  const describe = db.prepare(
    'UPDATE push_plans SET description = @description WHERE app_key = @appKey AND name = @name',
  )
  const remove = db.prepare('DELETE FROM push_plans WHERE app_key = @appKey AND name = @name')
  const exists = db.prepare<{ appKey: string; name: string }, { n: number }>(
    'SELECT 1 AS n FROM push_plans WHERE app_key = @appKey AND name = @name',
  )
  const get = db.prepare<{ appKey: string; name: string }, Row>(
    `${SELECT} WHERE p.app_key = @appKey AND p.name = @name GROUP BY p.name`,
  )
  const FILTER = `WHERE p.app_key = @appKey
    AND (@info IS NULL OR instr(p.name, @info) > 0 OR instr(p.description, @info) > 0)
    AND (@sendSource IS NULL OR p.send_source = @sendSource)`
  type Filter = { appKey: string; info: string | null; sendSource: number | null }
  const list = db.prepare<Filter & { limit: number; offset: number }, Row>(
    `${SELECT} ${FILTER} GROUP BY p.name ORDER BY p.created_at DESC, p.name LIMIT @limit OFFSET @offset`,
  )
  const total = db.prepare<Filter, { n: number }>(`SELECT count(*) AS n FROM push_plans p ${FILTER}`)
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM push_plans WHERE app_key = ?')
  const filterOf = (appKey: string, f: PlanFilter): Filter => ({
    appKey,
    info: f.info === undefined || f.info === '' ? null : f.info,
    sendSource: f.sendSource ?? null,
  })

  return {
    insert(p: Omit<PushPlan, 'pushCount' | 'lastUsedAt'>): void {
      insert.run(p)
    },
    /** Whether the app had that plan to describe anew. */
    describe(appKey: string, name: string, description: string): boolean {
      return describe.run({ appKey, name, description }).changes > 0
    },
    remove(appKey: string, name: string): boolean {
      return remove.run({ appKey, name }).changes > 0
    },
    exists(appKey: string, name: string): boolean {
      return exists.get({ appKey, name }) !== undefined
    },
    get(appKey: string, name: string): PushPlan | undefined {
      const row = get.get({ appKey, name })
      return row && toPlan(row)
    },
    /** Newest first, a page at a time, and how many match in all. */
    page(
      appKey: string,
      filter: PlanFilter,
      page: number,
      pageSize: number,
    ): { total: number; plans: PushPlan[] } {
      const params = filterOf(appKey, filter)
      const rows = list.all({ ...params, limit: pageSize, offset: (page - 1) * pageSize })
      return { total: total.get(params)?.n ?? 0, plans: rows.map(toPlan) }
    },
    count(appKey: string): number {
      return count.get(appKey)?.n ?? 0
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Push plans and the pushes counted under each (store.pushPlans). */
    pushPlans: ReturnType<typeof createPushPlanStore>
  }
}
