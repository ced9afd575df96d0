import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { serverBuild } from '../server-build.js'
import { afterEachTest } from '../teardown.js'

// An agent as the MCP SDK's own client is one: connected over Streamable HTTP to /_sandbox/mcp, or
// over stdio to `jiguang-sandbox mcp` run as a process (the bundle the package ships). Whatever a
// test opens is closed after it.

export interface Called {
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: each tool's answer is checked field by field
  structured: any
  isError: boolean
}

export interface Agent {
  client: Client
  /** A tool call; its answer was checked against the tool's outputSchema by the SDK's client. */
  call(name: string, args?: Record<string, unknown>): Promise<Called>
  /** What the server wrote on stderr so far (stdio). */
  stderr(): string
  close(): Promise<void>
}

const open: Agent[] = []
afterEachTest(async () => {
  await Promise.all(open.splice(0).map(a => a.close()))
})

async function connect(
  transport: StreamableHTTPClientTransport | StdioClientTransport,
  stderr: () => string,
): Promise<Agent> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(transport)
  // The client checks each answer against the outputSchema it listed.
  await client.listTools()
  const agent: Agent = {
    client,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args })
      const content = r.content as Array<{ type: string; text?: string }>
      return {
        text: content.map(c => c.text ?? '').join('\n'),
        structured: r.structuredContent,
        isError: r.isError === true,
      }
    },
    stderr,
    close: () => client.close(),
  }
  open.push(agent)
  return agent
}

/** An agent of /_sandbox/mcp at `url`, with these credentials (`Basic …`) and headers (and fetch). */
export function overHttp(
  url: string,
  authorization: string,
  headers: Record<string, string> = {},
  fetch?: typeof globalThis.fetch,
): Promise<Agent> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/_sandbox/mcp`), {
    requestInit: { headers: { authorization, ...headers } },
    ...(fetch ? { fetch } : {}),
  })
  return connect(transport, () => '')
}

/** An agent of `jiguang-sandbox mcp <args>`, a child process of the server's bundle. */
export function overStdio(args: string[], env: Record<string, string> = {}): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverBuild().server, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return connect(transport, () => stderr)
}
