import type { Feature } from '../../http/feature.js'
import { pushTemplateRoutes } from './sandbox.js'
import { createPushTemplateStore } from './table.js'
import { templatePushRoutes } from './templates.js'

// Push templates (docs/jpush-wire.md "Push templates"): pushed, scheduled and validated by
// POST /v3/push/template… (templates.ts, render.ts), made by the control plane as the vendor's
// console makes them (sandbox.ts: /_sandbox/push/templates), and their table (table.ts).

export { seedTemplateProblems } from './render.js'

export const pushTemplates = {
  name: 'push/templates',
  vendor: { push: [templatePushRoutes] },
  sandbox: [pushTemplateRoutes],
  tables: engine => ({ pushTemplates: createPushTemplateStore(engine) }),
} satisfies Feature
