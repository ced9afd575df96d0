import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { TEMPLATE_ID, TEMPLATE_LIMITS } from '../../seed/push-settings.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import { readTemplateDefinition } from './render.js'
import type { PushTemplate } from './table.js'

// Push templates, which the vendor's console makes and POST /v3/push/template pushes
// (docs/jpush-wire.md "Push templates"): here the control plane makes them, as the seed file does
// (`push_templates`). A template is a push without audience, its variables `{{name}}`.

const definition = z
  .object({
    name: z.string().min(1).max(TEMPLATE_LIMITS.nameChars),
    push: z
      .record(z.string(), z.unknown())
      .describe(
        'A /v3/push body without `audience`: notification, message, options…, strings with `{{name}}` variables.',
      ),
    params: z.array(z.string()).describe('Optional: the variables, which must be the push’s.').optional(),
  })
  .strict()

export const pushTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  params: z.array(z.string()).describe('The variables each template push gives in `keys`.'),
  push: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
})

const idParams = z.object({ template_id: z.string().regex(TEMPLATE_ID, 'letters and digits, at most 32') })

const view = (t: PushTemplate): z.input<typeof pushTemplateSchema> => ({
  id: t.templateId,
  name: t.name,
  params: t.params,
  push: t.push,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
})

export function pushTemplateRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  /** Creates or replaces the template `id` of the app, once it makes a valid push. */
  const save = async (appKey: string, id: string, body: z.output<typeof definition>, now: number) => {
    const read = readTemplateDefinition(body, appKey)
    if ('problem' in read) throw invalidField(read.field, read.problem)
    return store.write(() => {
      const had = store.pushTemplates.get(appKey, id)
      if (!had && store.pushTemplates.count(appKey) >= TEMPLATE_LIMITS.perApp)
        throw invalidField('template_id', `an app keeps at most ${TEMPLATE_LIMITS.perApp} push templates`)
      store.pushTemplates.save({
        appKey,
        templateId: id,
        ...read,
        createdAt: had?.createdAt ?? now,
        updatedAt: now,
      })
      return view(store.pushTemplates.get(appKey, id)!)
    })
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/templates',
      docs: {
        summary: "The app's push templates (POST /v3/push/template pushes them)",
        description:
          'The templates the app defines (here or in the seed file, as the vendor makes them in its console): each with its parameters and the push it renders per audience.',
      },
      schema: { response: { 200: z.object({ templates: z.array(pushTemplateSchema) }) } },
      handler: async req => ({ templates: store.pushTemplates.list(req.tenant.app.appKey).map(view) }),
    }),
    schemaRoute({
      method: 'POST',
      url: '/push/templates',
      docs: {
        summary: 'Make a push template, with an id of 12 hex digits as the console gives',
        description:
          'A name, its parameters and the push body with `{{name}}` placeholders; every placeholder must be a declared parameter (docs/jpush-wire.md "Push templates").',
      },
      schema: { body: definition, response: { 200: pushTemplateSchema } },
      handler: async req =>
        save(req.tenant.app.appKey, randomBytes(6).toString('hex'), req.body, req.tenant.now()),
    }),
    schemaRoute({
      method: 'GET',
      url: '/push/templates/:template_id',
      docs: {
        summary: 'One push template by its id',
        description: 'As in the list; 404 90046 for an id the app does not have.',
        errors: [sandboxErrors.unknownPushTemplate()],
      },
      schema: { params: idParams, response: { 200: pushTemplateSchema } },
      handler: async req => {
        const t = store.pushTemplates.get(req.tenant.app.appKey, req.params.template_id)
        if (!t) throw sandboxErrors.unknownPushTemplate()
        return view(t)
      },
    }),
    schemaRoute({
      method: 'PUT',
      url: '/push/templates/:template_id',
      docs: {
        summary: 'Make or replace the push template of this id',
        description:
          "As `POST /_sandbox/push/templates`, under the id named (a seed file's or one chosen by a test).",
      },
      schema: { params: idParams, body: definition, response: { 200: pushTemplateSchema } },
      handler: async req => save(req.tenant.app.appKey, req.params.template_id, req.body, req.tenant.now()),
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/push/templates/:template_id',
      docs: {
        summary: 'Remove a push template',
        description:
          "Later template pushes naming it answer the vendor's error; 404 90046 for an id the app does not have.",
        errors: [sandboxErrors.unknownPushTemplate()],
      },
      schema: { params: idParams, response: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const gone = await store.write(() => store.pushTemplates.remove(appKey, req.params.template_id))
        if (!gone) throw sandboxErrors.unknownPushTemplate()
        return { id: req.params.template_id, deleted: true as const }
      },
    }),
  ]
}
