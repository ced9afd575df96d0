import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { templateChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { emptyOk } from '../../http/empty-reply.js'
import { params } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Tenant } from '../../tenancy.js'
import { smsErrors as e } from '../errors.js'
import { pathId, smsBody, tempId } from '../fields.js'
import { checkSignedLength, templateBody } from './rules.js'
import type { Template } from './table.js'

// Template management, jsms-api.md §2.9. New and modified templates wait `reviewDelayMs` of the
// app's clock under review (status 0) and are then approved (scheduler/due-work.ts: by the
// scheduler, and by the catch-up before each request of the app, so every handler here sees the
// state the clock implies); the sandbox control plane can approve or reject at once.

const tempIdAnswer = z.object({ temp_id: z.int() })

/** The GET shape (Java `TempSMSResult`): exactly the documented fields. */
const templateAnswer = tempIdAnswer.extend({
  template: z.string(),
  type: z.int(),
  ttl: z.int(),
  remark: z.string(),
  status: z.int().describe('0 under review, 1 approved, 2 rejected.'),
})

export function templateView(t: Template): z.input<typeof templateAnswer> {
  return {
    temp_id: t.tempId,
    template: t.template,
    type: t.type,
    ttl: t.ttl,
    remark: t.remark,
    status: t.status,
  }
}

const tempIdParams = params({ temp_id: pathId('The template id.', e.invalidTempId) })
const deleted = { description: 'Deleted: an empty body.', media: null }

/** What the text is checked against once read: the app's default signature (50046, 50043). */
const signedChecks = [e.signatureNotSet(), e.templateTooLong()]
/** A modification: a rejected template of the app (50013, 50047), its new text, its signature. */
const modifyChecks = [e.invalidTempId(), e.modifyTemplateNotAllow(), templateBody, ...signedChecks]

export function templateRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps

  /** The text must fit with the app's default signature, so the app needs one (50046, 50043). */
  function checkAgainstDefaultSign(tenant: Tenant, template: string): void {
    const sign = store.signs.getDefault(tenant.app.appKey)
    if (sign?.status !== 1)
      throw e
        .signatureNotSet()
        .because(
          sign
            ? `the default signature ${sign.signId} is not approved (status ${sign.status})`
            : 'the app has no default signature to check the length against',
        )
    checkSignedLength(template, sign.sign)
  }

  /** Modification is allowed only after a rejection (50047), and sends the template back to review. */
  async function modify(req: FastifyRequest, tempId: number) {
    const { appKey } = req.tenant.app
    await store.write({ announces: ['template.changed'] }, () => {
      const now = req.tenant.now()
      const current = store.templates.get(appKey, tempId)
      if (!current) throw e.invalidTempId().because(`the app has no template ${tempId}`)
      if (current.status !== 2)
        throw e
          .modifyTemplateNotAllow()
          .because(
            `template ${tempId} is ${current.status === 0 ? 'under review' : 'approved'}: only a rejected one may change`,
          )
      const input = templateBody.read(req)
      checkAgainstDefaultSign(req.tenant, input.template)
      store.templates.update(appKey, tempId, input, now + config.reviewDelayMs, now)
      templateChanged(store, appKey, 'modified', tempId, now)
    })
    return { temp_id: tempId }
  }

  /** An existing template of the caller's app (50013 otherwise). */
  function find(tenant: Tenant, id: number): Template {
    const t = store.templates.get(tenant.app.appKey, id)
    if (!t) throw e.invalidTempId().because(`the app has no template ${id}`)
    return t
  }

  return [
    vendorRoute({
      method: 'POST',
      url: '/templates',
      summary: 'Create a template, under review (jsms-api.md §2.9)',
      // The Java client sends `"temp_id":0` with every creation: ids are ours to give.
      reads: { body: templateBody },
      checks: signedChecks,
      answer: tempIdAnswer,
      handler: async (req, { body: input }) => {
        const id = await store.write({ announces: ['template.changed'] }, () => {
          const now = req.tenant.now()
          checkAgainstDefaultSign(req.tenant, input.template)
          const next = store.sequences.next('temp_id')
          store.templates.insert(
            {
              appKey: req.tenant.app.appKey,
              tempId: next,
              ...input,
              status: 0,
              refuseReason: null,
              reviewAt: now + config.reviewDelayMs,
            },
            now,
          )
          templateChanged(store, req.tenant.app.appKey, 'created', next, now)
          return next
        })
        return { temp_id: id }
      },
    }),
    vendorRoute({
      // Java client ≤ 1.2.7: the id travels in the body (jsms-api.md §1.1).
      method: 'PUT',
      url: '/templates',
      summary: 'Replace a rejected template, its id in the body (Java client up to 1.2.7)',
      reads: { body: smsBody({ temp_id: tempId }) },
      checks: modifyChecks,
      answer: tempIdAnswer,
      handler: async (req, { body }) => modify(req, body.temp_id),
    }),
    vendorRoute({
      method: 'PUT',
      url: '/templates/:temp_id',
      summary: 'Replace a rejected template; it is under review again (jsms-api.md §2.9)',
      // The body must be an object before the template is looked up; its fields are read after.
      reads: { params: tempIdParams, body: smsBody({}) },
      checks: modifyChecks,
      answer: tempIdAnswer,
      handler: async (req, { params }) => modify(req, params.temp_id),
    }),
    vendorRoute({
      method: 'GET',
      url: '/templates/:temp_id',
      summary: 'Read a template (jsms-api.md §2.9)',
      reads: { params: tempIdParams },
      checks: [e.invalidTempId()],
      answer: templateAnswer,
      handler: async (req, { params }) => templateView(find(req.tenant, params.temp_id)),
    }),
    vendorRoute({
      method: 'DELETE',
      url: '/templates/:temp_id',
      summary: 'Delete a template (jsms-api.md §2.9)',
      reads: { params: tempIdParams },
      checks: [e.invalidTempId()],
      answer: deleted,
      handler: async (req, { params }, reply) => {
        const { tempId: id } = find(req.tenant, params.temp_id)
        await store.write({ announces: ['template.changed'] }, () => {
          if (!store.templates.remove(req.tenant.app.appKey, id)) throw e.invalidTempId()
          templateChanged(store, req.tenant.app.appKey, 'deleted', id, req.tenant.now())
        })
        return emptyOk(reply)
      },
    }),
  ]
}
