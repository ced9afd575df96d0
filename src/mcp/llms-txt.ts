import type { FastifyInstance } from 'fastify'
import type { RouteSpec } from '../http/routes.js'
import { llmsTxt } from './library.js'

/**
 * GET /llms.txt, the file agents read first (llmstxt.org): what the sandbox is, how to point an SDK
 * at it, the control plane's most used calls, where the manual is. The repository's llms.txt, as
 * shipped with the package; no credentials, like `/`.
 */
export function registerLlmsTxt(app: FastifyInstance): void {
  const route: RouteSpec = {
    method: 'GET',
    url: '/llms.txt',
    docs: {
      summary: 'For agents: what the sandbox is and how to use it (llms.txt)',
      description:
        'Markdown, as llmstxt.org proposes: the sandbox, its SDK setup, the most used control-plane calls, links to the manual and to the MCP server.',
      answers: { 200: { description: 'The llms.txt of the package.', media: 'text/plain' } },
    },
    handler: async (_req, reply) => reply.type('text/plain; charset=utf-8').send(llmsTxt()),
  }
  app.route(route)
}
