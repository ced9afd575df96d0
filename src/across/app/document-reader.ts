import { StringDecoder } from 'node:string_decoder'

// Reading an app's document as it arrives (POST /_sandbox/app/import), without holding it whole:
// the text is cut, chunk by chunk, into its pieces — each top-level member, each row of each
// table, each armed fault — and each piece is parsed by JSON.parse when it is complete. A piece is
// small (a row), so memory stays bounded whatever the document's size, and the cost is one pass
// over the characters plus V8's own parser over each piece: linear in the document. (A general
// streaming JSON parser, token by token in JavaScript, read 5 MB/s here, against ~100 MB/s for
// this cut and JSON.parse: a document at the caps is 120 MB.)

/** What the reader hands on, in document order. */
export interface DocumentPieces {
  /** A top-level member other than `tables` and `faults`, parsed. */
  member(key: string, value: unknown): void
  /** A table's array begins (its rows follow). */
  table(name: string): void
  /** One row of the current table, parsed (any JSON value: the caller checks it is an object). */
  row(table: string, index: number, value: unknown): void
  /** One element of `faults`, parsed. */
  fault(index: number, value: unknown): void
}

/** The document does not read as JSON of the expected shape: what, and where. */
export class DocumentUnreadable extends Error {
  constructor(
    message: string,
    /** Where, as the control plane names fields (`tables.messages[3]`); undefined: the document. */
    readonly at?: string,
  ) {
    super(message)
    this.name = 'DocumentUnreadable'
  }
}

/** The largest top-level member other than the tables and faults (its clock, developer…). */
const MEMBER_MAX = 64 * 1024

enum C {
  Quote = 34,
  Backslash = 92,
  OpenBrace = 123,
  CloseBrace = 125,
  OpenBracket = 91,
  CloseBracket = 93,
  Comma = 44,
  Colon = 58,
  Space = 32,
  Tab = 9,
  Newline = 10,
  Return = 13,
}

const isSpace = (c: number) => c === C.Space || c === C.Newline || c === C.Return || c === C.Tab

/**
 * Where the cut stands. `root`: in the top-level object; `tables`: in `tables` (names and
 * arrays); `rows`: in a table's array; `faults`: in the faults array. A piece (a member's
 * value, a row, a fault) is collected in `piece` until its depth closes.
 */
type Place = 'start' | 'root' | 'tables' | 'rows' | 'faults' | 'end'

export function createDocumentReader(to: DocumentPieces) {
  const decoder = new StringDecoder('utf8')
  let place: Place = 'start'
  /** In a place of keys: the key read last (a string), and whether a value is expected next. */
  let key: string | undefined
  let expect: 'key' | 'colon' | 'value' | 'comma' = 'key'
  // The string being read outside a piece (a key).
  let inKey = false
  let keyText = ''
  let keyEscaped = false
  // The piece being read: its text so far, its depth, whether inside a string.
  let piece: string[] | undefined
  let pieceDepth = 0
  let pieceString = false
  let pieceEscaped = false
  /** A scalar member's value (`"version": 1`) ends at the next comma or brace. */
  let scalar = false
  let pieceLength = 0
  let table = ''
  let index = 0
  let seenFirst = false

  const fail = (message: string, at?: string): never => {
    throw new DocumentUnreadable(message, at)
  }
  const where = () =>
    place === 'rows' ? `tables.${table}[${index}]` : place === 'faults' ? `faults[${index}]` : key

  function finishPiece(text: string): void {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (err) {
      fail(`does not read as JSON: ${(err as Error).message}`, where())
    }
    if (place === 'rows') to.row(table, index++, value)
    else if (place === 'faults') to.fault(index++, value)
    else to.member(key!, value)
  }

  /** Reads `text` from `i` as part of the piece; returns where the piece ended, or -1 if not yet. */
  function readPiece(text: string, i: number): number {
    const start = i
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (pieceString) {
        if (pieceEscaped) pieceEscaped = false
        else if (c === C.Backslash) pieceEscaped = true
        else if (c === C.Quote) {
          pieceString = false
          if (scalar && pieceDepth === 0) {
            piece!.push(text.slice(start, i + 1))
            return i + 1
          }
        }
        continue
      }
      if (scalar && pieceDepth === 0 && (c === C.Comma || c === C.CloseBrace || isSpace(c))) {
        piece!.push(text.slice(start, i))
        return i
      }
      if (c === C.Quote) pieceString = true
      else if (c === C.OpenBrace || c === C.OpenBracket) pieceDepth++
      else if (c === C.CloseBrace || c === C.CloseBracket) {
        pieceDepth--
        if (pieceDepth === 0 && !scalar) {
          piece!.push(text.slice(start, i + 1))
          return i + 1
        }
      }
    }
    piece!.push(text.slice(start))
    pieceLength += text.length - start
    if (place === 'root' && pieceLength > MEMBER_MAX) fail(`is longer than ${MEMBER_MAX} characters`, key)
    return -1
  }

  /** A value begins at character `c`: it is read whole, then parsed (`readPiece` reads `c` too). */
  function startPiece(c: number): void {
    piece = []
    pieceLength = 0
    scalar = c !== C.OpenBrace && c !== C.OpenBracket
    pieceString = false
    pieceEscaped = false
    pieceDepth = 0
  }

  /** A character outside any piece and key string, in `place`. */
  function structural(c: number, i: number): number {
    if (isSpace(c)) return i + 1
    if (place === 'start') {
      if (c !== C.OpenBrace) fail('the body is not a JSON object')
      seenFirst = true
      place = 'root'
      expect = 'key'
      return i + 1
    }
    if (place === 'end') fail('the body holds more than one JSON value')
    if (place === 'root' || place === 'tables') {
      if (expect === 'key' || expect === 'comma') {
        if (c === C.CloseBrace) {
          if (place === 'root') place = 'end'
          else {
            place = 'root'
            expect = 'comma'
          }
          return i + 1
        }
        if (expect === 'comma') {
          if (c !== C.Comma) fail('is not followed by "," or "}"', key)
          expect = 'key'
          return i + 1
        }
        if (c !== C.Quote)
          fail('is not JSON: a key must be a string', place === 'tables' ? 'tables' : undefined)
        inKey = true
        keyText = ''
        return i + 1
      }
      if (expect === 'colon') {
        if (c !== C.Colon) fail('is not JSON: ":" missing after a key', key)
        expect = 'value'
        return i + 1
      }
      // A value.
      if (place === 'tables') {
        if (c !== C.OpenBracket) fail('must be an array of rows', `tables.${key}`)
        table = key!
        index = 0
        to.table(table)
        place = 'rows'
        expect = 'value'
        return i + 1
      }
      if (key === 'tables') {
        if (c !== C.OpenBrace) fail('must be an object: table name → rows', 'tables')
        place = 'tables'
        expect = 'key'
        return i + 1
      }
      if (key === 'faults') {
        if (c !== C.OpenBracket) fail('must be an array', 'faults')
        place = 'faults'
        index = 0
        expect = 'value'
        return i + 1
      }
      startPiece(c)
      return i
    }
    // In an array of rows or faults.
    if (expect === 'comma') {
      if (c === C.Comma) {
        expect = 'value'
        return i + 1
      }
      if (c !== C.CloseBracket) fail('is not followed by "," or "]"', where())
    }
    if (c === C.CloseBracket) {
      place = place === 'rows' ? 'tables' : 'root'
      expect = 'comma'
      return i + 1
    }
    if (c !== C.OpenBrace) fail('must be an object', where())
    startPiece(c)
    return i
  }

  function feed(text: string): void {
    let i = 0
    while (i < text.length) {
      if (piece) {
        const end = readPiece(text, i)
        if (end < 0) return
        const whole = piece.join('')
        piece = undefined
        finishPiece(whole)
        expect = 'comma'
        i = end
        continue
      }
      if (inKey) {
        for (; i < text.length; i++) {
          const c = text.charCodeAt(i)
          if (keyEscaped) keyEscaped = false
          else if (c === C.Backslash) keyEscaped = true
          else if (c === C.Quote) break
          keyText += text[i]
          if (keyText.length > 256) fail('a key is longer than 256 characters')
        }
        if (i === text.length) return
        inKey = false
        try {
          key = JSON.parse(`"${keyText}"`) as string
        } catch {
          fail('is not JSON: a key does not read')
        }
        expect = 'colon'
        i++
        continue
      }
      i = structural(text.charCodeAt(i), i)
    }
  }

  return {
    /** A chunk of the body as it arrives. */
    write(chunk: Buffer): void {
      feed(decoder.write(chunk))
    },
    /** The body ended: anything left open is an error. */
    end(): void {
      feed(decoder.end())
      if (piece) {
        // A scalar member at the very end cannot be: the root object's `}` ends it first.
        fail('the document ends in the middle of a value', where())
      }
      if (!seenFirst) fail('the body is empty')
      if (place !== 'end') fail('the document ends before its last "}"')
    },
  }
}
