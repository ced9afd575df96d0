import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import type { ApiError } from '../errors.js'
import type { App } from '../store/apps/apps.js'
import type { Warning } from '../store/events/requests.js'

// The production advisor (issue 30, part 3; docs/advisor.md). A vendor call the sandbox accepts can
// still be one production treats otherwise: a marketing text at 23:00, a push to Xiaomi phones
// without the channel Xiaomi now requires, a screen-on push with a custom message. Each rule is
// data (this folder, one file per area): its name, its source (the vendor's page, or the SDK's
// file and line that documents it), what production answers when it refuses (if it does), and a
// check over what the route has already read. No rule reads the database unless the call names
// what it needs (a template's id): a call no rule applies to costs a few property reads.
//
// A warning rides on the request (`req.warnings`): the journal keeps it (http/journal.ts, migration
// 024), `request.completed` carries it, and `X-Sandbox-Warning` answers it to a caller who asked
// (`X-Sandbox-Warnings: on`, or the app's `settings.warnings.header`). STRICT_WARNINGS (or the
// app's `settings.warnings.strict`) turns the warnings of the rules production refuses into that
// refusal, in the vendor's envelope; the others stay warnings.

/** One rule of the advisor over a subject `S` (what the route read). */
export interface Rule<S> {
  /** Kebab-case, stable: the journal's `?warning=` filter and the docs name it. */
  rule: string
  /** Where the rule comes from: the vendor's page, or the SDK's file and line. */
  source: string
  /** What production answers when it refuses such a call; absent: production accepts it. */
  refusal?: () => ApiError
  /** What is wrong with this call, in words; undefined: nothing. */
  check(subject: S): string | undefined
}

/** The app's own choice (settings.warnings), else the process's. */
function appWarnings(app: App): { header?: unknown; strict?: unknown } {
  const own = app.settings.warnings
  return own !== null && typeof own === 'object' ? own : {}
}

/** Whether warnings of refusing rules are refused for this app (STRICT_WARNINGS, settings.warnings.strict). */
export function isStrict(config: Pick<Config, 'strictWarnings'>, app: App): boolean {
  const own = appWarnings(app).strict
  return typeof own === 'boolean' ? own : config.strictWarnings
}

/**
 * Runs `rules` over `subject` for the request: each that finds something adds its warning to the
 * request; under STRICT_WARNINGS the first of a rule production refuses throws that refusal (its
 * warning stays in the journal beside it). Call before the call's write: a refused call leaves
 * nothing behind.
 */
export function advise<S>(
  req: FastifyRequest,
  config: Pick<Config, 'strictWarnings'>,
  rules: readonly Rule<S>[],
  subject: S,
): void {
  for (const r of rules) {
    const message = r.check(subject)
    if (message === undefined) continue
    warn(req, r, message)
    if (r.refusal && isStrict(config, req.tenant.app))
      throw r.refusal().because(`${r.rule}: ${message} (STRICT_WARNINGS; ${r.source})`)
  }
}

/** Adds one rule's warning to the request. */
export function warn(req: FastifyRequest, r: Pick<Rule<unknown>, 'rule' | 'source'>, message: string): void {
  const w: Warning = { rule: r.rule, message, source: r.source }
  if (req.warnings) req.warnings.push(w)
  else req.warnings = [w]
}

/** A header's value: printable ASCII only (a message may quote a caller's text). */
const headerText = (w: Warning) => `${w.rule}; ${w.message}; ${w.source}`.replace(/[^\x20-\x7e]/g, '?')

/**
 * Fastify's onSend hook, on the whole app (app.ts): one `X-Sandbox-Warning: <rule>; <message>;
 * <source>` per warning, when the request asked (`X-Sandbox-Warnings: on`) or the app did
 * (`settings.warnings.header: true`). Nothing to do for a call without warnings.
 */
export function warningHeaders(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, p: unknown) => void,
): void {
  const warnings = req.warnings
  if (warnings !== undefined) {
    const asked = req.headers['x-sandbox-warnings']
    // A group push's request (no tenant: its members') answers them when it asks.
    const wanted =
      asked === undefined
        ? req.tenant !== undefined && appWarnings(req.tenant.app).header === true
        : String(asked).toLowerCase() === 'on'
    // One header line per warning (a list is repeated lines, as HTTP allows for this header).
    if (wanted)
      reply.header(
        'X-Sandbox-Warning',
        warnings.length === 1 ? headerText(warnings[0]!) : warnings.map(headerText),
      )
  }
  done(null, payload)
}
