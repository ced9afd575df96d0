import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { basic, newKey } from '../helpers.js'
import { REPO, readPage, section } from '../readme/pages.js'
import { startServer, tempDatabase } from '../reliability/server-process.js'
import { type Run, runInVendorNetwork } from './vendor-network.js'

// docs/sdk-setup.md, section by section (npm run test:sdks): each section's first code block is
// taken from the page as it is written and run as a test in its SDK's language, against a sandbox
// process with its TLS listener, with an app of its own. The SDKs with a base URL are given the
// sandbox's URL; those that keep the vendor's hostnames run in a network where the names are the
// sandbox (vendor-network.ts), trusting its CA as the page says. The Node SDKs are the real ones
// from npm; the others are stand-ins (stand-ins/README.md). Then the sandbox's journal must hold
// what the SDK sends, from its User-Agent, and the SDK must have got the answer the journal shows.

const PAGE = readPage('docs/sdk-setup.md')
const HERE = join(REPO.pathname, 'test', 'sdk-setup')

type Lang = 'java' | 'python' | 'php' | 'node' | 'ruby' | 'go' | 'csharp'

/** What the sandbox must have received from the SDK, in order. */
interface Expected {
  method: string
  path: string
  query?: string | null
  body?: Record<string, unknown>
}

interface Sdk {
  /** The section's heading on the page. */
  title: string
  lang: Lang
  /** The fence's language on the page. */
  fence: string
  /** Where the language's test finds the snippet. */
  file: string
  /** The test's name in the language's test file. */
  test: string
  /** true: the SDK keeps the vendor's hostnames and runs in the vendor network. */
  dropIn: boolean
  userAgent: RegExp | null
  requests: Expected[]
}

const ALERT = { notification: { alert: 'Hello from the sandbox' } }
const CODE = { mobile: '13800138000', temp_id: 1 }
const ALL = { platform: 'all', audience: 'all' }

const SDKS: Sdk[] = [
  {
    title: 'Java: jpush-api-java-client',
    lang: 'java',
    fence: 'java',
    file: 'JPushThroughTheSandbox.java',
    test: 'jpushApiJavaClient',
    dropIn: false,
    userAgent: /^JPush-API-Java-Client$/,
    requests: [
      {
        method: 'POST',
        path: '/v3/push',
        body: {
          ...ALL,
          notification: { ai_opportunity: false, alert: 'Hello from the sandbox' },
          options: { sendno: expect.any(Number), apns_production: false, classification: 0 },
        },
      },
    ],
  },
  {
    title: 'Java: jsms-api-java-client',
    lang: 'java',
    fence: 'java',
    file: 'JsmsThroughTheSandbox.java',
    test: 'jsmsApiJavaClient',
    dropIn: false,
    userAgent: /^JPush-API-Java-Client$/,
    requests: [{ method: 'POST', path: '/v1/codes', body: CODE }],
  },
  {
    title: 'Java: jiguang-sdk-java 5.x',
    lang: 'java',
    fence: 'java',
    file: 'JiguangSdkThroughTheSandbox.java',
    test: 'jiguangSdkJava',
    dropIn: false,
    userAgent: /^okhttp\/4\./,
    requests: [{ method: 'POST', path: '/v3/push', body: { audience: 'all', platform: 'all', ...ALERT } }],
  },
  {
    title: 'PHP: jpush-api-php-client',
    lang: 'php',
    fence: 'php',
    file: 'jpush_snippet.php',
    test: 'testJpushApiPhpClient',
    dropIn: true,
    userAgent: /^JPush-API-PHP-Client$/,
    requests: [
      {
        method: 'POST',
        path: '/v3/push',
        body: { ...ALL, ...ALERT, options: { sendno: expect.any(Number), apns_production: false } },
      },
    ],
  },
  {
    title: 'PHP: jsms-api-php-client',
    lang: 'php',
    fence: 'php',
    file: 'jsms_snippet.php',
    test: 'testJsmsApiPhpClient',
    dropIn: true,
    userAgent: /^JSMS-API-PHP-CLIENT$/,
    requests: [{ method: 'POST', path: '/v1/codes', body: CODE }],
  },
  {
    title: 'Python: jpush-api-python-client',
    lang: 'python',
    fence: 'python',
    file: 'jpush_snippet.py',
    test: 'test_jpush_api_python_client',
    dropIn: false,
    userAgent: /^jpush-api-python-client$/,
    requests: [{ method: 'POST', path: '/v3/push', body: { audience: 'all', platform: 'all', ...ALERT } }],
  },
  {
    title: 'Python: jsms-api-python-client',
    lang: 'python',
    fence: 'python',
    file: 'jsms_snippet.py',
    test: 'test_jsms_api_python_client',
    dropIn: false,
    userAgent: /^python-requests\//,
    requests: [{ method: 'POST', path: '/v1/codes', body: CODE }],
  },
  {
    title: 'Node: jpush-async',
    lang: 'node',
    fence: 'js',
    file: 'jpush_async_snippet.cjs',
    test: 'jpush-async',
    dropIn: true,
    userAgent: /^JPush-API-NodeJS-Client 4\./,
    requests: [
      {
        method: 'POST',
        path: '/v3/push',
        body: { ...ALERT, ...ALL, options: { sendno: expect.any(Number), apns_production: false } },
      },
    ],
  },
  {
    title: 'Node: jpush-sdk',
    lang: 'node',
    fence: 'js',
    file: 'jpush_sdk_snippet.cjs',
    test: 'jpush-sdk',
    dropIn: true,
    userAgent: /^JPush-API-NodeJS-Client 3\./,
    requests: [
      {
        method: 'POST',
        path: '/v3/push',
        body: { ...ALL, ...ALERT, options: { sendno: expect.any(Number), apns_production: false } },
      },
    ],
  },
  {
    title: 'Ruby: jpush-api-ruby-client',
    lang: 'ruby',
    fence: 'ruby',
    file: 'jpush_snippet.rb',
    test: 'test_jpush_api_ruby_client',
    dropIn: true,
    userAgent: /^jpush-api-ruby-client\/4\./,
    requests: [
      { method: 'GET', path: '/v3/push/cid', query: 'count=1&type=push' },
      {
        method: 'POST',
        path: '/v3/push/',
        body: { ...ALL, ...ALERT, options: { apns_production: false }, cid: expect.any(String) },
      },
    ],
  },
  {
    title: 'C#: jpush-api-csharp-client',
    lang: 'csharp',
    fence: 'csharp',
    file: 'Snippet.cs',
    test: 'SdkSetupTest.JPushApiCsharpClient',
    dropIn: false,
    // .NET's HttpClient sends no User-Agent unless told, and the SDK does not tell it.
    userAgent: null,
    requests: [
      { method: 'POST', path: '/v3/push', body: { ...ALL, ...ALERT, options: { apns_production: false } } },
    ],
  },
  {
    title: 'Go: cavlabs/jiguang-sdk-go',
    lang: 'go',
    fence: 'go',
    file: 'snippet.go',
    test: 'TestJiguangSdkGo',
    dropIn: false,
    userAgent: /^cavlabs\/jiguang-sdk-go\/v1\./,
    requests: [{ method: 'POST', path: '/v1/codes', body: CODE }],
  },
]

/** The first ```<fence> block under the page's heading `title`, as the reader sees it. */
function snippet(title: string, fence: string): string {
  const found = new RegExp(`^\`\`\`${fence}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(section(PAGE, title))
  if (!found) throw new Error(`docs/sdk-setup.md, "${title}": no \`\`\`${fence} block`)
  return found[1]!
}

const work = mkdtempSync(join(tmpdir(), 'sdk-setup-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const run = promisify(execFile)

/** Debian's own python3 (python3-pytest is installed for it), else the first on the PATH. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'
const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar'
const NUNIT = '/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll'

/** A folder per language: its test file, its stand-ins, every snippet of that language; built once. */
const prepared = new Map<Lang, Promise<string>>()
function prepare(lang: Lang): Promise<string> {
  let dir = prepared.get(lang)
  if (!dir) {
    dir = (async () => {
      const folder = join(work, lang)
      cpSync(join(HERE, lang), folder, { recursive: true })
      if (existsSync(join(HERE, 'stand-ins', lang)))
        cpSync(join(HERE, 'stand-ins', lang), join(folder, 'stand-ins'), { recursive: true })
      for (const sdk of SDKS.filter(s => s.lang === lang))
        writeFileSync(join(folder, sdk.file), snippet(sdk.title, sdk.fence))
      if (lang === 'java') {
        const sources = [
          ...walk(join(folder, 'stand-ins')),
          ...readdirSync(folder).filter(f => f.endsWith('.java')),
        ]
        await run('javac', ['-d', 'classes', '-cp', JUNIT, ...sources], { cwd: folder })
      } else if (lang === 'csharp') {
        const sources = [...walk(join(folder, 'stand-ins')), 'Snippet.cs', 'SdkSetupTest.cs']
        await run(
          'mcs',
          ['-target:library', '-out:SdkSetup.dll', '-r:System.Net.Http.dll', `-r:${NUNIT}`, ...sources],
          { cwd: folder },
        )
        cpSync(NUNIT, join(folder, 'nunit.framework.dll'))
      }
      return folder
    })()
    prepared.set(lang, dir)
  }
  return dir
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile() && /\.(java|cs)$/.test(e.name))
    .map(e => join(e.parentPath, e.name))
}

/** The command that runs `sdk`'s test in its language, in its prepared folder. */
function command(sdk: Sdk, folder: string, ca: string): { argv: string[]; env: Record<string, string> } {
  switch (sdk.lang) {
    case 'java':
      return {
        argv: [
          'java',
          '-jar',
          JUNIT,
          '-cp',
          'classes',
          '--select-method',
          `SdkSetupTest#${sdk.test}`,
          '--disable-banner',
          '--fail-if-no-tests',
        ],
        env: {},
      }
    case 'python':
      return {
        argv: [PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', `test_sdk_setup.py::${sdk.test}`],
        env: { PYTHONPATH: `${join(folder, 'stand-ins')}:${folder}`, PYTHONDONTWRITEBYTECODE: '1' },
      }
    case 'php':
      return {
        // The CA as the page says (curl.cainfo); the JPush client does not check it.
        argv: [
          'php',
          '-d',
          `curl.cainfo=${ca}`,
          '/usr/bin/phpunit',
          '--do-not-cache-result',
          '--filter',
          sdk.test,
          'SdkSetupTest.php',
        ],
        env: {},
      }
    case 'ruby':
      return {
        argv: ['ruby', '-I', 'stand-ins', 'sdk_setup_test.rb', '--name', sdk.test],
        env: { SSL_CERT_FILE: ca },
      }
    case 'go':
      return {
        argv: ['go', 'test', '-count=1', '-run', `^${sdk.test}$`, '.'],
        env: { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: join(work, 'go-cache') },
      }
    case 'csharp':
      return { argv: ['nunit-console', 'SdkSetup.dll', `-run=${sdk.test}`, '-nologo', '-noresult'], env: {} }
    case 'node':
      return {
        argv: [process.execPath, '--test', 'sdk-setup.test.cjs'],
        env: {
          SNIPPET: join(folder, sdk.file),
          NODE_PATH: join(REPO.pathname, 'node_modules'),
          NODE_EXTRA_CA_CERTS: ca,
        },
      }
  }
}

interface JournalEntry {
  method: string
  path: string
  query: string | null
  status: number
  user_agent: string | null
  request_body: string | null
  answer_body: string | null
}

describe('docs/sdk-setup.md: each SDK, pointed at the sandbox as its section says', () => {
  it('has a section for every SDK tested here, and a test here for every section', () => {
    const headings = [...PAGE.matchAll(/^## (.+)$/gm)].map(m => m[1]!)
    const tested = SDKS.map(s => s.title)
    const untested = ["The sandbox's address and an app", 'Other Go clients']
    expect(headings.filter(h => !untested.includes(h))).toEqual(tested)
  })

  for (const sdk of SDKS) {
    it(`${sdk.title}: ${sdk.dropIn ? 'the TLS drop-in' : 'its base URL'}`, { timeout: 180_000 }, async () => {
      const server = await startServer({ DB_PATH: tempDatabase(), TLS_PORT: '0', HOST: '127.0.0.1' })
      const { tlsPort } = (await server.waitForLog(/^TLS on port/)) as { tlsPort: number }
      const folder = await prepare(sdk.lang)
      const ca = join(folder, `ca-${tlsPort}.pem`)
      writeFileSync(ca, await (await fetch(`${server.url}/_sandbox/ca.pem`)).text())
      const result = join(folder, `result-${sdk.test}.json`)
      const appKey = newKey('sdk')
      const masterSecret = newKey('sec')
      const { argv, env } = command(sdk, folder, ca)
      const fullEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME ?? work,
        LANG: 'C.UTF-8',
        SANDBOX: server.url,
        JIGUANG_APP_KEY: appKey,
        JIGUANG_MASTER_SECRET: masterSecret,
        SDK_SETUP_RESULT: result,
        ...env,
      }
      const [cmd, ...args] = argv as [string, ...string[]]
      const ran: Run = sdk.dropIn
        ? await runInVendorNetwork(argv, { tlsPort, env: fullEnv, cwd: folder })
        : await run(cmd, args, { cwd: folder, env: fullEnv, timeout: 150_000 }).then(
            ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
            (e: { code: number; stdout: string; stderr: string }) => ({
              code: e.code,
              stdout: e.stdout,
              stderr: e.stderr,
            }),
          )
      expect(ran.code, `${sdk.lang} test ${sdk.test}:\n${ran.stdout}\n${ran.stderr}`).toBe(0)

      const journal = await fetch(`${server.url}/_sandbox/requests?limit=100`, {
        headers: { authorization: basic(appKey, masterSecret) },
      })
      const entries = ((await journal.json()) as { requests: JournalEntry[] }).requests.reverse()
      expect(entries.map(e => [e.method, e.path, e.status])).toEqual(
        sdk.requests.map(r => [r.method, r.path, 200]),
      )
      sdk.requests.forEach((expected, i) => {
        const entry = entries[i]!
        if (expected.query !== undefined) expect(entry.query).toBe(expected.query)
        if (expected.body) expect(JSON.parse(entry.request_body ?? 'null')).toEqual(expected.body)
        if (sdk.userAgent) expect(entry.user_agent).toMatch(sdk.userAgent)
        else expect(entry.user_agent).toBeNull()
      })
      // The SDK returned the answer the sandbox gave.
      const answered = JSON.parse(entries.at(-1)!.answer_body ?? 'null') as { msg_id: string }
      expect(JSON.parse(readFileSync(result, 'utf8'))).toEqual({ msg_id: answered.msg_id })
      await server.kill('SIGTERM')
    })
  }
})
