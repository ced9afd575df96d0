// @ts-check
// The vendors' words for what the views show (jsms-api.md, jpush-api.md; README tables).

/** Delivery report statuses (jsms-api.md §2.8; the README's magic numbers). */
export const REPORT_STATUSES = {
  4001: 'delivered',
  4002: "number on the carrier's blacklist",
  4003: 'handset off or suspended',
  4004: 'number does not exist',
  4005: 'insufficient balance',
  4006: 'carrier frequency limit',
  4007: 'voice: not answered',
  4008: 'voice: busy',
  4009: 'voice: unreachable',
  4010: 'blocked for sensitive words',
  4100: 'other error',
}

export const reportText = status => `${REPORT_STATUSES[status] ?? 'status'} (${status})`

/** Template types (JSMS §2.9): what a template message is. */
export const TEMPLATE_TYPES = { 1: 'verification code', 2: 'notification', 3: 'marketing' }

/** Review status of templates and signatures (JSMS §2.9, §2.10). */
export const REVIEW_STATUSES = { 0: 'under review', 1: 'approved', 2: 'rejected' }

/** What kind of SMS a message is: its kind, or for a template message its template's type. */
export function messageKind(message, templates) {
  if (message.kind === 'code') return 'verification code'
  if (message.kind === 'voice_code') return 'voice code'
  const template = templates.find(t => t.temp_id === message.temp_id)
  return TEMPLATE_TYPES[template?.type] ?? 'template message'
}

export const PLATFORMS = {
  android: 'Android',
  ios: 'iOS',
  hmos: 'HarmonyOS',
  quickapp: 'Quick app',
  winphone: 'Windows Phone',
}

export const CALLBACK_TYPES = {
  SMS_REPORT: 'delivery report',
  SMS_REPLY: 'reply',
  SMS_TEMPLATE: 'template review',
  SMS_SIGN: 'signature review',
}
