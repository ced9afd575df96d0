import { describe, expect, it } from 'vitest'
import { COLUMN_RULES } from '../../src/across/app/document-rules.js'
import { createTestApp } from '../helpers.js'

// An import checks every column of every row as the API checks what it stores
// (src/across/app/document-rules.ts): a table a migration adds must say what its rows may hold.

describe('the rules of an imported row', () => {
  it('name every column of every table a document holds, and no other', async () => {
    const { app } = await createTestApp()
    for (const t of app.store.appDocument.tables) {
      const rules = COLUMN_RULES[t.name]
      expect(rules, `${t.name}: give its columns rules in document-rules.ts`).toBeDefined()
      expect(Object.keys(rules ?? {}).sort(), t.name).toEqual([...t.exported].sort())
    }
    const names = app.store.appDocument.tables.map(t => t.name)
    expect(Object.keys(COLUMN_RULES).filter(n => !names.includes(n))).toEqual([])
  })
})
