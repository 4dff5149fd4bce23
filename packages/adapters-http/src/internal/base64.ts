/**
 * Strict Base64 (RFC 4648 §4, standard alphabet) for `file_base64`. Node's `Buffer.from(s, "base64")` skips any
 * character it does not know, so garbage decodes "successfully"; this validator refuses it first.
 *
 * Accepted: `A–Z a–z 0–9 + /`, length a multiple of 4 with `=` padding only at the end (0 to 2), and zero unused
 * bits in the last symbol (canonical encoding). Line breaks (CR and LF, as `base64` tools wrap at 76 columns) are
 * ignored; every other character — spaces, tabs, the URL-safe `-` and `_`, a `data:…;base64,` prefix — is refused.
 */
import { Result } from "effect"

const ALPHABET = /^[A-Za-z0-9+/]*$/
const INVALID = /[^A-Za-z0-9+/=]/
const LINE_BREAKS = /[\r\n]/g

const describe = (char: string): string => {
  const code = char.codePointAt(0) ?? 0
  if (char === " ") return "a space"
  if (char === "\t") return "a tab"
  return code < 0x20 || code === 0x7f
    ? `control character U+${code.toString(16).padStart(4, "0").toUpperCase()}`
    : `'${char}'`
}

const SYMBOL_VALUE = (c: string): number => {
  const code = c.charCodeAt(0)
  if (code >= 65 && code <= 90) return code - 65
  if (code >= 97 && code <= 122) return code - 71
  if (code >= 48 && code <= 57) return code + 4
  return c === "+" ? 62 : 63
}

/** Decodes strict Base64, or says (without echoing the input) what is wrong with it. */
export const decode = (input: string): Result.Result<Uint8Array, string> => {
  if (input.length === 0) return Result.fail("file_base64 is empty")
  if (/^\s*data:/i.test(input.slice(0, 64))) {
    return Result.fail("file_base64 must be plain Base64, not a data: URL; remove the 'data:…;base64,' prefix")
  }
  const clean = input.includes("\n") || input.includes("\r") ? input.replace(LINE_BREAKS, "") : input
  if (clean.length === 0) return Result.fail("file_base64 is empty")
  const bad = INVALID.exec(clean)
  if (bad !== null) {
    const hint = bad[0] === "-" || bad[0] === "_" ? " (URL-safe Base64 is not accepted)" : ""
    return Result.fail(`file_base64 is not valid Base64: ${describe(bad[0])} at position ${bad.index}${hint}`)
  }
  if (clean.length % 4 !== 0) {
    return Result.fail("file_base64 is not valid Base64: its length (without line breaks) is not a multiple of 4")
  }
  const firstPad = clean.indexOf("=")
  const body = firstPad === -1 ? clean : clean.slice(0, firstPad)
  const padding = clean.length - body.length
  if (padding > 2 || !ALPHABET.test(body) || (firstPad !== -1 && !/^=+$/.test(clean.slice(firstPad)))) {
    return Result.fail("file_base64 is not valid Base64: '=' padding may only end the value, at most twice")
  }
  if (padding > 0) {
    // The bits of the last symbol that fall outside the decoded bytes must be zero (canonical encoding).
    const last = SYMBOL_VALUE(body[body.length - 1]!)
    if ((padding === 1 && (last & 0b11) !== 0) || (padding === 2 && (last & 0b1111) !== 0)) {
      return Result.fail("file_base64 is not valid Base64: non-canonical final symbol before the padding")
    }
  }
  const bytes = Buffer.from(clean, "base64")
  return Result.succeed(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
}
