import { join } from 'node:path'
import { inject } from 'vitest'

/**
 * The server's build that the tests start as a process (test/global-setup.ts): `node <path>`
 * runs it as `npx jiguang-sandbox` and the image do. `folder`: where it lies, readable by anyone.
 */
export function serverBuild(): { folder: string; server: string } {
  const folder = inject('serverBuild')
  return { folder, server: join(folder, 'dist', 'server.js') }
}
