import type { PipelineDeps } from '../../deps.js'
import type { Bucket } from '../../store/apps/apps.js'
import type { MessageKind } from '../../store/sms/messages.js'
import type { Sign } from '../../store/sms/signs.js'
import type { Template, TemplateType } from '../../store/sms/templates.js'
import type { Tenant } from '../../tenancy.js'
import { smsErrors } from '../errors.js'
import { billedUnits } from '../limits.js'
import { recordReport, reportStatusFor } from '../reports/status.js'
import { checkFrequency } from './frequency.js'
import { checkContent, fillTemplate, signed } from './render.js'

// The send pipeline shared by immediate and scheduled sends: resolve and render outside the
// write (whole-request errors), then `deliver` inside it (per-recipient errors: unsubscribed,
// frequency, balance), so a failure stores and charges nothing.

/** A template the app may send through this endpoint (50013, 50020, 50021, 50025). */
export function resolveTemplate(
  deps: PipelineDeps,
  tenant: Tenant,
  tempId: number,
  allowed: TemplateType[],
): Template {
  const t = deps.store.templates.get(tenant.app.appKey, tempId)
  if (!t) throw smsErrors.invalidTempId()
  if (t.status === 0) throw smsErrors.templateAuditing()
  if (t.status === 2) throw smsErrors.templateNotPass()
  if (!allowed.includes(t.type)) throw smsErrors.wrongTemplateType()
  return t
}

/** The signature to use: the one named (approved, 50051) or the app's default (50046). */
export function resolveSign(deps: PipelineDeps, tenant: Tenant, signId: number | undefined): Sign {
  const { signs } = deps.store
  if (signId === undefined) {
    const sign = signs.getDefault(tenant.app.appKey)
    if (sign?.status !== 1) throw smsErrors.signatureNotSet()
    return sign
  }
  const sign = signs.get(tenant.app.appKey, signId)
  if (sign?.status !== 1) throw smsErrors.signaturesNotExist()
  return sign
}

// Per app object: the cached app is shared by every request until its settings change.
const lowerCasedWords = new WeakMap<object, string[]>()

/** The global and the app's sensitive words, lower-cased for checkContent. */
export function sensitiveWordsOf(deps: PipelineDeps, tenant: Tenant): readonly string[] {
  let words = lowerCasedWords.get(tenant.app)
  if (!words) {
    words = [...deps.sensitiveWords, ...tenant.app.sensitiveWords].map(w => w.toLowerCase())
    lowerCasedWords.set(tenant.app, words)
  }
  return words
}

/** The signed text of a template message (50022, 50023, 50037, 50038, 50054). */
export function renderTemplateMessage(
  deps: PipelineDeps,
  tenant: Tenant,
  template: Template,
  sign: Sign,
  para: Record<string, string>,
): string {
  const content = signed(sign.sign, fillTemplate(template.template, para))
  checkContent(content, sensitiveWordsOf(deps, tenant))
  return content
}

function bucketOf(kind: MessageKind, tempType: number | null): Bucket {
  if (kind === 'voice_code') return 'voice'
  return tempType === 3 ? 'market' : 'industry'
}

export interface Outgoing {
  mobile: string
  kind: MessageKind
  template: Template | null
  sign: Sign | null
  para: Record<string, string> | null
  content: string
  tag?: string | null
  scheduleId?: string | null
  /** Allocated beforehand (a scheduled recipient's id is shown before the task runs). */
  msgId?: string
}

/**
 * Stores and charges one message: call it inside a write job (store.write). Throws 50024, 50009
 * or 50014 without side effects when the message may not go out: every check comes before the
 * first write, so a batch needs no savepoint per recipient (batch.ts, fire-schedule.ts). Keep it so.
 */
export function deliver(deps: PipelineDeps, tenant: Tenant, m: Outgoing, now: number): string {
  const { store, config } = deps
  const { appKey } = tenant.app
  const tempType = m.template?.type ?? null
  if (tempType === 3 && store.unsubscribed.has(appKey, m.mobile)) throw smsErrors.unsubscribedMobile()
  checkFrequency(
    store.messages,
    { appKey, mobile: m.mobile, kind: m.kind, tempType, content: m.content },
    now,
    config.timeZone,
  )
  const units = m.kind === 'voice_code' ? 1 : billedUnits(m.content)
  if (!store.apps.charge(tenant.app, bucketOf(m.kind, tempType), units)) throw smsErrors.noMoney()
  const msgId = m.msgId ?? String(store.sequences.next('msg_id'))
  store.messages.insert({
    msgId,
    appKey,
    mobile: m.mobile,
    kind: m.kind,
    tempId: m.template?.tempId ?? null,
    tempType,
    signId: m.sign?.signId ?? null,
    tempPara: m.para,
    content: m.content,
    units,
    tag: m.tag ?? null,
    scheduleId: m.scheduleId ?? null,
    createdAt: now,
  })
  recordReport(deps, tenant.app, { msgId, mobile: m.mobile, status: reportStatusFor(m.mobile) }, now)
  return msgId
}
