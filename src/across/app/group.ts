import { z } from 'zod'
import type { Clock } from '../../clock.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { type GroupSetting, groupSetting } from '../../seed/push-settings.js'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import type { Tenant } from '../../tenancy.js'
import { appEventData } from './view.js'

// The calling app's membership of a group for group push (POST /v3/grouppush): the app setting
// `settings.group` (seed/push-settings.ts), set here without a seed file. A group is the apps that
// name the same group_key and master_secret; each app joins or leaves it only for itself.

const schemas = {
  group: z.object({
    group_key: z.string().nullable(),
    /** The group's master secret: the second half of `group-<group_key>:<master_secret>`. */
    master_secret: z.string().nullable(),
    /** The apps of the group (the caller included), in appKey order. */
    members: z.array(z.string()),
  }),
}

const groupOf = (app: App): GroupSetting | undefined => {
  const parsed = groupSetting.safeParse(app.settings.group)
  return parsed.success ? parsed.data : undefined
}

export function pushGroupRoutes(deps: { store: Store; clock: Clock }): RouteSpec[] {
  const { store } = deps
  const show = (appKey: string): z.input<typeof schemas.group> => {
    const group = groupOf(store.apps.get(appKey)!)
    if (!group) return { group_key: null, master_secret: null, members: [] }
    const members = store.pushGroups
      .members(group.group_key)
      .filter(key => groupOf(store.apps.get(key)!)?.master_secret === group.master_secret)
    return { group_key: group.group_key, master_secret: group.master_secret, members }
  }
  // The group is one of the app's settings (GET /_sandbox/app shows it): an app.changed too.
  const setGroup = (tenant: Tenant, group: GroupSetting | undefined) => {
    const { app } = tenant
    const { group: _, ...settings } = app.settings
    return store.write({ announces: ['app.changed'] }, () => {
      store.apps.updateSettings({ ...app, settings: group ? { ...settings, group } : settings })
      const data = appEventData(deps, app.appKey)
      store.events.append({ appKey: app.appKey, type: 'app.changed', data, at: tenant.now() })
    })
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/group',
      docs: {
        summary: 'The group of apps this app belongs to, for group push',
        description: `The group key (its \`group_key\`) and the apps of the group: \`POST /v3/grouppush\` with
\`group-<group_key>:<master_secret>\` reaches every one of them (jpush-api.md §5.14).`,
      },
      schema: { response: { 200: schemas.group } },
      handler: async req => show(req.tenant.app.appKey),
    }),
    schemaRoute({
      method: 'PUT',
      url: '/push/group',
      docs: {
        summary: 'Put the app in a group (its key and master secret), for group push',
        description: "As the seed file's `settings.group`; answers the group with its apps.",
      },
      schema: { body: groupSetting, response: { 200: schemas.group } },
      handler: async req => {
        await setGroup(req.tenant, req.body)
        return show(req.tenant.app.appKey)
      },
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/push/group',
      docs: {
        summary: 'Take the app out of its group',
        description: 'Group pushes no longer reach it; answers the group as it stands without it.',
      },
      schema: { response: { 200: schemas.group } },
      handler: async req => {
        await setGroup(req.tenant, undefined)
        return show(req.tenant.app.appKey)
      },
    }),
  ]
}
