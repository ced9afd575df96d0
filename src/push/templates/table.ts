import type { Engine } from '../../store/engine/index.js'

/** A push template of the app: a push body (no audience) whose strings hold `{{name}}` placeholders. */
export interface PushTemplate {
  appKey: string
  templateId: string
  name: string
  /** The placeholders a template push must give in `keys`. */
  params: string[]
  push: Record<string, unknown>
  createdAt: number
  updatedAt: number
}

interface Row {
  app_key: string
  template_id: string
  name: string
  params: string
  push: string
  created_at: number
  updated_at: number
}

const toTemplate = (r: Row): PushTemplate => ({
  appKey: r.app_key,
  templateId: r.template_id,
  name: r.name,
  params: JSON.parse(r.params),
  push: JSON.parse(r.push),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

/** The push templates of each app (the vendor's console makes them: here the seed file and the control plane). */
export function createPushTemplateStore({ db }: Engine) {
  const save = db.prepare(
    `INSERT INTO push_templates (app_key, template_id, name, params, push, created_at, updated_at)
     VALUES (@appKey, @templateId, @name, @params, @push, @createdAt, @updatedAt)
     ON CONFLICT (app_key, template_id) DO UPDATE SET name = excluded.name, params = excluded.params,
       push = excluded.push, updated_at = excluded.updated_at`,
  )
  const get = db.prepare<{ appKey: string; templateId: string }, Row>(
    'SELECT * FROM push_templates WHERE app_key = @appKey AND template_id = @templateId',
  )
  const list = db.prepare<[string], Row>(
    'SELECT * FROM push_templates WHERE app_key = ? ORDER BY created_at, template_id',
  )
  const remove = db.prepare(
    'DELETE FROM push_templates WHERE app_key = @appKey AND template_id = @templateId',
  )
  const count = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM push_templates WHERE app_key = ?',
  )

  return {
    /** Creates the template, or replaces one of the same id (keeping when it was first made). */
    save(t: PushTemplate): void {
      save.run({ ...t, params: JSON.stringify(t.params), push: JSON.stringify(t.push) })
    },
    get(appKey: string, templateId: string): PushTemplate | undefined {
      const row = get.get({ appKey, templateId })
      return row && toTemplate(row)
    },
    list(appKey: string): PushTemplate[] {
      return list.all(appKey).map(toTemplate)
    },
    remove(appKey: string, templateId: string): boolean {
      return remove.run({ appKey, templateId }).changes > 0
    },
    count(appKey: string): number {
      return count.get(appKey)?.n ?? 0
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Push templates, which POST /v3/push/template pushes (docs/jpush-wire.md "Push templates"). */
    pushTemplates: ReturnType<typeof createPushTemplateStore>
  }
}
