import type { PipelineDeps } from '../../deps.js'
import type { Bucket } from '../../store/apps/apps.js'
import type { MessageKind, MessageStore } from '../../store/sms/messages.js'
import type { Sign } from '../../store/sms/signs.js'
import type { Template, TemplateType } from '../../store/sms/templates.js'
import type { Tenant } from '../../tenancy.js'
import { localDayStart } from '../../time.js'
import { smsErrors } from '../errors.js'
import { billedUnits, charCount, ONE_DAY, SMS_LIMITS, TEN_MINUTES } from '../limits.js'
import { recordReport, reportStatusFor } from '../reports/status.js'

// The send pipeline shared by immediate and scheduled sends: resolve and render outside the
// write (whole-request errors), then `deliver` inside it (per-recipient errors: unsubscribed,
// frequency, balance), so a failure stores and charges nothing. `refusals` names what each step
// answers, in its order, for the routes' declarations (the OpenAPI document's failures).

const e = smsErrors

/** What each step of a send refuses, in the order it checks. */
export const refusals = {
  /** resolveTemplate */
  template: [e.invalidTempId(), e.templateAuditing(), e.templateNotPass(), e.wrongTemplateType()],
  /** resolveSign */
  sign: [e.signaturesNotExist(), e.signatureNotSet()],
  /** renderTemplateMessage: fillTemplate, then checkContent */
  render: [
    e.parametersIsEmpty(),
    e.parametersNotAllReplaced(),
    e.contentContainsSpecialSymbol(),
    e.invalidContentLength(),
    e.hasBlackWord(),
  ],
  /** deliver, inside the write */
  deliver: [e.unsubscribedMobile(), e.outOfFreq(), e.noMoney()],
}

/** Everything a template send checks after reading its body, in order. */
export const templateSend = [...refusals.template, ...refusals.sign, ...refusals.render, ...refusals.deliver]

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

// Template texts: placeholders, parameters, signature marks, length and sensitive words.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g
// The vendor's signature marks; no parameter or template may contain them (50052, 50054).
export const SIGNATURE_MARKS = /[【】]/

// Every send of a template parses the same text: its placeholders are remembered (bounded).
const parsed = new Map<string, readonly string[]>()

/** The distinct `{{name}}` placeholders of a template, in order. */
export function placeholders(template: string): readonly string[] {
  let names = parsed.get(template)
  if (!names) {
    names = [...new Set([...template.matchAll(PLACEHOLDER)].map(m => m[1]!))]
    if (parsed.size >= 10_000) parsed.clear()
    parsed.set(template, names)
  }
  return names
}

/** Fills a template, enforcing the parameter rules (50022, 50023, 50054). */
export function fillTemplate(template: string, para: Record<string, string>): string {
  const names = placeholders(template)
  if (names.length > 0 && Object.keys(para).length === 0) throw smsErrors.parametersIsEmpty()
  for (const name of names) {
    const value = para[name]
    if (value === undefined) throw smsErrors.parametersNotAllReplaced()
    if (value.trim() === '') throw smsErrors.parametersIsEmpty()
    if (SIGNATURE_MARKS.test(value)) throw smsErrors.contentContainsSpecialSymbol()
  }
  return template.replace(PLACEHOLDER, (_m, name: string) => para[name] ?? '')
}

/** The text as the handset shows it: the signature in its marks, then the body. */
export function signed(sign: string, body: string): string {
  return `【${sign}】${body}`
}

/**
 * Final checks on a rendered text: length (50038) and sensitive words (50037). `sensitiveWords`
 * are compared case-insensitively: pass them lower-cased (sensitiveWordsOf in send.ts does).
 */
export function checkContent(content: string, sensitiveWords: readonly string[]): void {
  if (charCount(content) > SMS_LIMITS.maxContentLength) throw smsErrors.invalidContentLength()
  const lower = content.toLowerCase()
  for (const w of sensitiveWords) if (lower.includes(w)) throw smsErrors.hasBlackWord()
}

// Frequency limits.

export interface FrequencySubject {
  appKey: string
  mobile: string
  kind: 'code' | 'voice_code' | 'template'
  /** Template type: 1 verification, 2 notification, 3 marketing. */
  tempType: number | null
  content: string
}

/**
 * The per-app, per-mobile limits of sms-service.md §8 (50009). Windows are counted from the
 * messages actually sent, so they are exact, durable and move with the app's clock. Must run
 * inside the write job that then stores the message, so two requests cannot both pass the edge.
 */
export function checkFrequency(
  messages: MessageStore,
  s: FrequencySubject,
  now: number,
  timeZone: string,
): void {
  const { appKey, mobile } = s
  if (s.kind === 'voice_code') {
    if (messages.countKindSince(appKey, mobile, 'voice_code', now - SMS_LIMITS.voiceIntervalMs) > 0) {
      throw smsErrors.outOfFreq()
    }
    return
  }
  if (s.kind === 'code' || s.tempType === 1) {
    if (messages.countCodesSince(appKey, mobile, now - ONE_DAY) >= SMS_LIMITS.codesPer24h) {
      throw smsErrors.outOfFreq()
    }
    return
  }
  if (s.tempType === 2) {
    // "per day" is the calendar day in the configured zone (Beijing time by default).
    const dayStart = localDayStart(now, timeZone) - 1
    const sent = messages.countNotifications(appKey, mobile, s.content, now - TEN_MINUTES, dayStart)
    if (sent.same >= SMS_LIMITS.notificationSameContentPer10Min) throw smsErrors.outOfFreq()
    if (sent.day >= SMS_LIMITS.notificationPerDay) throw smsErrors.outOfFreq()
    return
  }
  if (s.tempType === 3) {
    if (messages.countTypeSince(appKey, mobile, 3, now - TEN_MINUTES) >= SMS_LIMITS.marketingPer10Min) {
      throw smsErrors.outOfFreq()
    }
  }
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
