import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.js'
import { emptyOk } from '../../http/empty-reply.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { Template, TemplateInput } from '../../store/sms/templates.js'
import type { Tenant } from '../../tenancy.js'
import { smsErrors } from '../errors.js'
import { readBody, readTempId } from '../fields.js'
import { readPathId } from '../path-id.js'
import {
  createTemplateDocs,
  deleteTemplateDocs,
  modifyTemplateDocs,
  modifyTemplateLegacyDocs,
  readTemplateDocs,
} from './docs.js'
import { checkSignedLength, readTemplateInput } from './rules.js'

// Template management, jsms-api.md §2.9. New and modified templates wait `reviewDelayMs` of the
// app's clock under review (status 0) and are then approved (scheduler/due-work.ts: by the
// scheduler, and by the catch-up before each request of the app, so every handler here sees the
// state the clock implies); the sandbox control plane can approve or reject at once.

/** The GET shape (Java `TempSMSResult`): exactly the documented fields. */
export function templateView(t: Template) {
  return {
    temp_id: t.tempId,
    template: t.template,
    type: t.type,
    ttl: t.ttl,
    remark: t.remark,
    status: t.status,
  }
}

type TempIdParams = { temp_id: string }

export function templateRoutes(deps: AppDeps): RouteSpec[] {
  const { store, config } = deps

  /** The text must fit with the app's default signature, so the app needs one (50046, 50043). */
  function checkAgainstDefaultSign(tenant: Tenant, input: TemplateInput): void {
    const sign = store.signs.getDefault(tenant.app.appKey)
    if (sign?.status !== 1) throw smsErrors.signatureNotSet()
    checkSignedLength(input.template, sign.sign)
  }

  /** Modification is allowed only after a rejection (50047), and sends the template back to review. */
  async function modify(req: FastifyRequest, tempId: number) {
    const body = readBody(req.body)
    const { appKey } = req.tenant.app
    await store.write(() => {
      const now = req.tenant.now()
      const current = store.templates.get(appKey, tempId)
      if (!current) throw smsErrors.invalidTempId()
      if (current.status !== 2) throw smsErrors.modifyTemplateNotAllow()
      const input = readTemplateInput(body)
      checkAgainstDefaultSign(req.tenant, input)
      store.templates.update(appKey, tempId, input, now + config.reviewDelayMs, now)
    })
    return { temp_id: tempId }
  }

  /** An existing template of the caller's app, (50013 otherwise). */
  function find(tenant: Tenant, pathId: string): Template {
    const tempId = readPathId(pathId, smsErrors.invalidTempId)
    const t = store.templates.get(tenant.app.appKey, tempId)
    if (!t) throw smsErrors.invalidTempId()
    return t
  }

  return [
    {
      method: 'POST',
      url: '/templates',
      docs: createTemplateDocs,
      handler: async req => {
        // The Java client sends `"temp_id":0` with every creation: ids are ours to give.
        const input = readTemplateInput(readBody(req.body))
        const tempId = await store.write(() => {
          const now = req.tenant.now()
          checkAgainstDefaultSign(req.tenant, input)
          const id = store.sequences.next('temp_id')
          store.templates.insert(
            {
              appKey: req.tenant.app.appKey,
              tempId: id,
              ...input,
              status: 0,
              refuseReason: null,
              reviewAt: now + config.reviewDelayMs,
            },
            now,
          )
          return id
        })
        return { temp_id: tempId }
      },
    },
    {
      // Java client ≤ 1.2.7: the id travels in the body (jsms-api.md §1.1).
      method: 'PUT',
      url: '/templates',
      docs: modifyTemplateLegacyDocs,
      handler: async req => modify(req, readTempId(readBody(req.body).temp_id)),
    },
    route<{ Params: TempIdParams }>({
      method: 'PUT',
      url: '/templates/:temp_id',
      docs: modifyTemplateDocs,
      handler: async req => modify(req, readPathId(req.params.temp_id, smsErrors.invalidTempId)),
    }),
    route<{ Params: TempIdParams }>({
      method: 'GET',
      url: '/templates/:temp_id',
      docs: readTemplateDocs,
      handler: async req => templateView(find(req.tenant, req.params.temp_id)),
    }),
    route<{ Params: TempIdParams }>({
      method: 'DELETE',
      url: '/templates/:temp_id',
      docs: deleteTemplateDocs,
      handler: async (req, reply) => {
        const { tempId } = find(req.tenant, req.params.temp_id)
        await store.write(() => {
          if (!store.templates.remove(req.tenant.app.appKey, tempId)) throw smsErrors.invalidTempId()
        })
        return emptyOk(reply)
      },
    }),
  ]
}
