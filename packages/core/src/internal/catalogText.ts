/**
 * Normalization of catalog values and of the values read from documents, so both sides compare on the same text:
 * accents, case, punctuation and spacing are folded; a trailing legal form ("S.A. de C.V.", "GmbH") is split off
 * into a column of its own; common abbreviations are expanded. Identifier-like values (tax ids, SKUs) also get a
 * compact form with OCR confusables folded.
 */
import { withinOneEdit } from "../EditDistance.js"

/** Letters that NFKD does not decompose into a base letter plus marks. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i"
}

/** Accents and compatibility forms removed (NFKD, marks dropped), lower case, special letters spelled out. */
const foldSlowly = (value: string): string =>
  value
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => SPECIAL_LETTERS[c] ?? c)

/** Characters below this code fold one by one through `LATIN_FOLDS` (Basic Latin to Latin Extended-B). */
const LATIN_END = 0x250

/**
 * Each Latin character folded on its own. Within this range folding is per character: NFKD decomposes each one
 * independently, the marks it yields are dropped whatever their order, and lower-casing needs no context (the tests
 * compare whole values both ways).
 */
const LATIN_FOLDS: ReadonlyArray<string> = Array.from({ length: LATIN_END }, (_, code) =>
  foldSlowly(String.fromCharCode(code))
)

/**
 * Character codes of a string being built (synchronous: filled, then read by `stringOf`, in one call). Building a
 * string character by character with `+=` allocates a string per character; this allocates only the result.
 */
export const charBuffer: Array<number> = []

/** The string of the first `length` codes of `codes`. */
export const stringOf = (codes: Array<number>, length: number): string => {
  codes.length = length
  if (length <= APPLY_CHUNK) return String.fromCharCode.apply(null, codes)
  // Arguments are bounded by the stack: a very long value is built a chunk at a time.
  let out = ""
  for (let i = 0; i < length; i += APPLY_CHUNK) out += String.fromCharCode.apply(null, codes.slice(i, i + APPLY_CHUNK))
  return out
}

/** The most codes passed to `String.fromCharCode` at once. */
const APPLY_CHUNK = 4_096

/** Accents and compatibility forms removed (NFKD, marks dropped), lower case. */
export const foldText = (value: string): string => {
  const out = charBuffer
  let k = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code >= LATIN_END) return foldSlowly(value)
    const folded = LATIN_FOLDS[code]!
    if (folded.length === 1) out[k++] = folded.charCodeAt(0)
    else for (let j = 0; j < folded.length; j++) out[k++] = folded.charCodeAt(j)
  }
  return stringOf(out, k)
}

/**
 * Legal forms by canonical name, each with the spellings it absorbs once spaces and dots are gone ("S. A. de C.V.",
 * "SA DE CV" and "sociedad anónima de capital variable" are not all listed: the joined tokens are compared, so
 * "s a de c v", "sa de cv" and "s.a. de c.v." all read `sadecv`).
 */
export const LEGAL_FORMS: ReadonlyArray<readonly [canonical: string, spellings: ReadonlyArray<string>]> = [
  ["sa de cv", ["sadecv", "sacv"]],
  ["sab de cv", ["sabdecv"]],
  ["sapi de cv", ["sapidecv"]],
  ["s de rl de cv", ["sderldecv", "srldecv"]],
  ["s de rl", ["sderl"]],
  ["sa", ["sa", "sociedadanonima"]],
  ["sau", ["sau"]],
  ["sal", ["sal"]],
  ["sl", ["sl", "sociedadlimitada"]],
  ["slu", ["slu"]],
  ["sll", ["sll"]],
  ["slne", ["slne"]],
  ["srl", ["srl", "sociedadderesponsabilidadlimitada"]],
  ["sas", ["sas"]],
  ["sac", ["sac"]],
  ["saa", ["saa"]],
  ["saic", ["saic"]],
  ["saci", ["saci"]],
  ["sc", ["sc"]],
  ["scp", ["scp"]],
  ["scoop", ["scoop", "sccoop", "scooperativa"]],
  ["cb", ["cb"]],
  ["spa", ["spa"]],
  ["eirl", ["eirl"]],
  ["ltda", ["ltda", "limitada"]],
  ["ltd", ["ltd", "limited"]],
  ["co ltd", ["coltd"]],
  ["pty ltd", ["ptyltd"]],
  ["pvt ltd", ["pvtltd", "privatelimited"]],
  ["inc", ["inc", "incorporated"]],
  ["llc", ["llc"]],
  ["llp", ["llp"]],
  ["plc", ["plc"]],
  ["corp", ["corp", "corporation"]],
  ["co", ["co", "company"]],
  ["gmbh", ["gmbh"]],
  ["gmbh co kg", ["gmbhcokg", "gmbhycokg"]],
  ["ag", ["ag"]],
  ["kg", ["kg"]],
  ["bv", ["bv"]],
  ["nv", ["nv"]],
  ["sarl", ["sarl"]],
  ["sdn bhd", ["sdnbhd"]],
  ["bhd", ["bhd", "berhad"]]
]

const legalBySpelling: ReadonlyMap<string, string> = new Map(
  LEGAL_FORMS.flatMap(([canonical, spellings]) => spellings.map((s) => [s, canonical] as const))
)

/** The most tokens a legal form spans ("s a de c v" is six). */
const LEGAL_MAX_TOKENS = 8

/**
 * Abbreviations expanded (or spellings folded) word by word, after the legal form is split off. Kept to ones that
 * are unambiguous in company names and addresses in Spanish and English.
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  cia: "compania",
  hnos: "hermanos",
  hno: "hermano",
  intl: "internacional",
  international: "internacional",
  soc: "sociedad",
  asoc: "asociacion",
  coop: "cooperativa",
  dpto: "departamento",
  depto: "departamento",
  dept: "departamento",
  gral: "general",
  admon: "administracion",
  serv: "servicios",
  servs: "servicios",
  av: "avenida",
  avda: "avenida",
  sto: "santo",
  sta: "santa",
  dr: "doctor",
  dra: "doctora",
  univ: "universidad",
  inst: "instituto",
  grp: "grupo",
  mfg: "manufacturing",
  bros: "brothers",
  and: "y",
  und: "y",
  et: "y"
}

/**
 * A word's expansion, or the word itself. Only the table's own entries count: "constructor" is a word of company
 * names ("Grupo Constructor del Norte"), not `Object.prototype.constructor`.
 */
const expand = (word: string): string => (Object.hasOwn(ABBREVIATIONS, word) ? (ABBREVIATIONS[word] ?? word) : word)

/** Dotted abbreviations ("s.a.", "c.v", "inc.", "s.r.l."): short groups joined by dots read as one word. */
const DOTTED = /^(?:[a-z0-9]{1,4}\.)+[a-z0-9]{0,4}$/

/** A word glued to a dotted abbreviation by a lost space ("gijons.a.", "sevillas.l.u."). */
const GLUED = /^([a-z0-9]{3,})((?:[a-z]\.){2,}[a-z]?)$/

const APOSTROPHES = /['’`´]/g

const DOT = 46
const AMPERSAND = 38
const PLUS = 43

/** `a-z`, `0-9` and the dot: the characters a word is made of (the dot only until `words` reads abbreviations). */
const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === DOT

/** The words of a folded text: apostrophes join, `&`/`+` read "y", any other symbol separates. */
export const words = (folded: string): Array<string> => {
  const out: Array<string> = []
  const text = folded.replace(APOSTROPHES, "")
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (!isWordCode(c)) {
      if (c === AMPERSAND || c === PLUS) out.push("y")
      i++
      continue
    }
    let j = i
    let dotted = false
    for (; j < n; j++) {
      const d = text.charCodeAt(j)
      if (!isWordCode(d)) break
      if (d === DOT) dotted = true
    }
    const raw = text.slice(i, j)
    i = j
    if (!dotted) {
      out.push(raw)
      continue
    }
    if (raw === ".") continue
    if (DOTTED.test(raw)) {
      out.push(raw.replaceAll(".", ""))
      continue
    }
    const glued = GLUED.exec(raw)
    if (glued?.[1] !== undefined && glued[2] !== undefined) {
      out.push(glued[1], glued[2].replaceAll(".", ""))
      continue
    }
    for (const part of raw.split(".")) if (part !== "") out.push(part)
  }
  return out
}

/** OCR misreadings undone when looking for a legal form ("5.L." → `sl`, "Lfda." → `ltda`, "Ltcl." → `ltd`). */
const ocrLegal = (joined: string): string => {
  if (!OCR_LEGAL.test(joined)) return joined
  // One pass, as the replacements in turn would give: 5→s, 0→o, 1→l, 8→b, then "cl"→d left to right, then f→t.
  let out = ""
  let i = 0
  while (i < joined.length) {
    const c = ocrDigit(joined.charAt(i))
    if (c === "c" && i + 1 < joined.length && ocrDigit(joined.charAt(i + 1)) === "l") {
      out += "d"
      i += 2
    } else {
      out += c === "f" ? "t" : c
      i++
    }
  }
  return out
}

/** What `ocrLegal` changes: one of its digits, an `f`, or a `c` before what reads as an `l`. */
const OCR_LEGAL = /[5018f]|c[l1]/

const ocrDigit = (c: string): string => (c === "5" ? "s" : c === "0" ? "o" : c === "1" ? "l" : c === "8" ? "b" : c)

/** Spellings this long also match one edit away (shorter ones are too close to ordinary words). */
const LEGAL_FUZZY_LENGTH = 5

/** The longest spelling: longer trailing runs cannot be a legal form, even one edit away. */
const LEGAL_MAX_LENGTH = Math.max(...[...legalBySpelling.keys()].map((s) => s.length))

/** Spellings of `LEGAL_FUZZY_LENGTH` or more characters, by length. */
const fuzzyByLength: ReadonlyMap<number, ReadonlyArray<readonly [string, string]>> = (() => {
  const out = new Map<number, Array<readonly [string, string]>>()
  for (const [spelling, canonical] of legalBySpelling) {
    if (spelling.length < LEGAL_FUZZY_LENGTH) continue
    const list = out.get(spelling.length) ?? []
    list.push([spelling, canonical])
    out.set(spelling.length, list)
  }
  return out
})()

/**
 * The canonical legal form the words of `tokens` from `start` spell: exactly, after undoing OCR misreadings, or one
 * edit away (long spellings only, and only from short words or a single word: "sa dde cv", "limitcd", not "sur sa").
 */
const legalOf = (tokens: ReadonlyArray<string>, start: number): string | undefined => {
  const joined = start === tokens.length - 1 ? (tokens[start] ?? "") : tokens.slice(start).join("")
  const exact = legalBySpelling.get(joined)
  if (exact !== undefined) return exact
  const read = ocrLegal(joined)
  const unfolded = read === joined ? undefined : legalBySpelling.get(read)
  if (unfolded !== undefined) return unfolded
  if (read.length < LEGAL_FUZZY_LENGTH) return undefined
  for (let k = start; k < tokens.length && tokens.length - start > 1; k++) {
    if ((tokens[k]?.length ?? 0) > 4) return undefined
  }
  for (const length of [read.length - 1, read.length, read.length + 1]) {
    for (const [spelling, canonical] of fuzzyByLength.get(length) ?? []) {
      if (withinOneEdit(spelling, read)) return canonical
    }
  }
  return undefined
}

/** A value as compared: the name without its legal form, and the legal form (canonical, `""` when none). */
export interface NormalizedText {
  readonly key: string
  readonly legal: string
}

/**
 * Normalizes a value: folded words, a trailing legal form split off (never the whole value), abbreviations
 * expanded. Only `a-z`, `0-9` and single spaces remain in `key`.
 */
export const normalizeText = (value: string): NormalizedText => {
  const tokens = words(foldText(value))
  let legal = ""
  let end = tokens.length
  const first = Math.max(1, tokens.length - LEGAL_MAX_TOKENS)
  // The letters from each start to the end: a run longer than every spelling (even one edit away) is no legal form.
  let letters = 0
  for (let i = first; i < tokens.length; i++) letters += tokens[i]?.length ?? 0
  for (let i = first; i < tokens.length; i++) {
    const canonical = letters > LEGAL_MAX_LENGTH + 1 ? undefined : legalOf(tokens, i)
    if (canonical !== undefined) {
      legal = canonical
      end = i
      break
    }
    letters -= tokens[i]?.length ?? 0
  }
  let key = ""
  for (let i = 0; i < end; i++) {
    const word = expand(tokens[i] ?? "")
    key += i === 0 ? word : ` ${word}`
  }
  return { key, legal }
}

/** OCR confusables folded in identifiers, to the digit they are read as or for. */
export const CONFUSABLES: Readonly<Record<string, string>> = {
  O: "0",
  I: "1",
  L: "1",
  S: "5",
  B: "8",
  Z: "2",
  G: "6"
}

/** An identifier-like value: compact (upper case, separators dropped) and with OCR confusables folded. */
export interface Identifier {
  readonly compact: string
  readonly folded: string
}

/** Shortest and longest identifiers, in characters once compact. */
export const IDENTIFIER_LENGTH = { min: 4, max: 40 } as const

/**
 * The identifier reading of a value, or `undefined` when it does not look like one. Identifier-like: at most three
 * space-separated groups, 4–40 letters and digits once `-`, `.`, `/`, `_` and spaces are dropped, at least two
 * digits and at least 30% digits (CIF `B12345678`, CUIT `20-12345678-9`, RFC `GODE561231GR8`, SKU `ABC-1234-XL`).
 */
export const identifierOf = (value: string): Identifier | undefined => {
  const folded = foldText(value).toUpperCase().trim()
  if (folded === "" || folded.split(/\s+/).length > 3) return undefined
  const compact = folded.replace(/[\s.\-_/]+/g, "")
  if (compact.length < IDENTIFIER_LENGTH.min || compact.length > IDENTIFIER_LENGTH.max) return undefined
  if (!/^[A-Z0-9]+$/.test(compact)) return undefined
  const digits = compact.replace(/[^0-9]/g, "").length
  if (digits < 2 || digits * 10 < compact.length * 3) return undefined
  return { compact, folded: compact.replace(/[OILSBZG]/g, (c) => CONFUSABLES[c] ?? c) }
}
