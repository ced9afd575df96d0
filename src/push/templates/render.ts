import { isApiError } from '../../errors.js'
import { TEMPLATE_VARIABLE, variablesOf } from '../../seed/push-settings.js'
import type { SeedCheck } from '../../seed/seed-file.js'
import { parsePush } from '../send/index.js'
import { isObject, type Json } from '../values.js'

// Push templates (docs/jpush-wire.md "Push templates"): the vendor's console saves a push without
// its audience, some of its strings holding variables; POST /v3/push/template names the template
// and gives, per push, the audience and the variables' values (`keys`). The console's variable
// syntax is not public: here a variable is `{{name}}` (as in JSMS templates), in any string of the
// push, keys included.

/** The push with each `{{name}}` replaced by its value (a copy; the template is left as it is). */
export function render(value: unknown, keys: Readonly<Record<string, string>>): unknown {
  const fill = (text: string) => text.replace(TEMPLATE_VARIABLE, (whole, name: string) => keys[name] ?? whole)
  if (typeof value === 'string') return fill(value)
  if (Array.isArray(value)) return value.map(v => render(v, keys))
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [fill(k), render(v, keys)]))
  return value
}

export interface TemplateDefinition {
  name: string
  params: string[]
  push: Json
}

/**
 * A template as the control plane or the seed file defines it: a name, and a push without
 * audience (each template push gives its own) whose variables are the template's params. It must
 * make a valid push once its variables are filled (here with `x`), as the console would check:
 * `problem` says what is wrong, in words for the control plane's 400.
 */
export function readTemplateDefinition(
  value: { name: string; push: Record<string, unknown>; params?: string[] | undefined },
  appKey: string,
): TemplateDefinition | { problem: string; field: string } {
  const { push } = value
  if ('audience' in push)
    return { field: 'push.audience', problem: 'each template push gives its own audience: leave it out' }
  if ('cid' in push) return { field: 'push.cid', problem: 'a cid names one push: leave it out' }
  const params = [...variablesOf(push)]
  if (value.params && [...value.params].sort().join() !== [...params].sort().join())
    return {
      field: 'params',
      problem: `must be the push's variables: ${params.map(p => `{{${p}}}`).join(', ') || 'none'}`,
    }
  const sample = render(push, Object.fromEntries(params.map(p => [p, 'x']))) as Json
  try {
    parsePush({ ...sample, audience: 'all' }, appKey)
  } catch (err) {
    if (!isApiError(err)) throw err
    return { field: 'push', problem: `is not a valid push once filled in: ${err.code} ${err.message}` }
  }
  return { name: value.name, params, push }
}

/**
 * The seed file's templates that make no valid push once filled in: the seed file states its own
 * shape (seed/push-settings.ts), the push rules are this surface's, so app.ts hands this check to
 * readSeedFile and a bad template refuses the start like any other mistake of the file.
 */
export const seedTemplateProblems: SeedCheck = seed =>
  seed.apps.flatMap((a, i) =>
    (a.push_templates ?? []).flatMap((t, j) => {
      const read = readTemplateDefinition(t, a.app_key)
      return 'problem' in read
        ? [{ path: ['apps', i, 'push_templates', j, ...read.field.split('.')], message: read.problem }]
        : []
    }),
  )
