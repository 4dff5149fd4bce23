/**
 * The word forms of a Hunspell dictionary, by applying its affix rules to its stems ("unmunch"), for the lists
 * nspell expands too slowly: nspell 2.1.5 took over 90 s on the Portuguese lists and over 10 minutes on the Italian
 * one (MEASUREMENTS.md, "Lexicon"). Only what the lexicon uses is produced: forms that are runs of letters (no
 * French elisions "l'homme", no compounds), from prefixes and suffixes, a suffix's continuation suffixes one level
 * deep, and prefixes crossed with suffixes where both allow it. Stems and affixes that Hunspell marks as no words
 * of their own (NEEDAFFIX, ONLYINCOMPOUND, FORBIDDENWORD) give none, and circumfixes none.
 */

interface Rule {
  readonly strip: string
  readonly add: string
  readonly flags: ReadonlyArray<string>
  readonly condition: RegExp | undefined
}

interface Affix {
  readonly prefix: boolean
  readonly cross: boolean
  readonly rules: Array<Rule>
}

type FlagMode = "char" | "utf8" | "long" | "num"

const splitFlags = (text: string, mode: FlagMode): Array<string> => {
  if (text.length === 0) return []
  switch (mode) {
    case "long":
      return text.match(/[\s\S]{1,2}/g) ?? []
    case "num":
      return text.split(",").filter((f) => f.length > 0)
    case "utf8":
      return [...text]
    case "char":
      return text.split("")
  }
}

const LETTERS = /^\p{L}*$/u

/** A Hunspell condition ("[^aeiou]y", ".", "[cg]are") as a test of a word's end (suffix) or start (prefix). */
const conditionPattern = (condition: string, prefix: boolean): RegExp | undefined => {
  if (condition === "." || condition.length === 0) return undefined
  let body = ""
  let inClass = false
  const chars = [...condition]
  for (const [k, c] of chars.entries()) {
    if (c === "[") inClass = true
    else if (c === "]") inClass = false
    if (c === "[" || c === "]" || c === "." || (c === "^" && inClass && chars[k - 1] === "[")) body += c
    else if (inClass && c === "-") body += "\\-"
    else body += c.replace(/[\\^$*+?()|{}/]/g, (x) => `\\${x}`)
  }
  return new RegExp(prefix ? `^(?:${body})` : `(?:${body})$`, "u")
}

/** The affix rules of an `.aff` file, by flag, and the flags that mark stems or forms as no words of their own. */
const parseAffixes = (aff: string) => {
  let mode: FlagMode = "char"
  const affixes = new Map<string, Affix>()
  const aliases: Array<string> = []
  const barred = new Set<string>()
  const lines = aff.split(/\r?\n/)
  for (const line of lines) {
    const parts = line.trim().split(/\s+/)
    const [key, a, b, c, d] = parts
    if (key === "FLAG" && a !== undefined)
      mode = a === "UTF-8" ? "utf8" : a === "long" ? "long" : a === "num" ? "num" : "char"
    else if (key === "AF" && a !== undefined && b === undefined) continue
    else if (key === "AF" && a !== undefined) aliases.push(a)
    else if ((key === "NEEDAFFIX" || key === "ONLYINCOMPOUND" || key === "FORBIDDENWORD" || key === "CIRCUMFIX") && a)
      barred.add(a)
    else if ((key === "PFX" || key === "SFX") && a !== undefined && b !== undefined && c !== undefined) {
      const affix = affixes.get(a)
      if (affix === undefined) {
        if (d === undefined) affixes.set(a, { prefix: key === "PFX", cross: b === "Y", rules: [] })
        continue
      }
      const [addText = "", flagText = ""] = c.split("/")
      const strip = b === "0" ? "" : b
      const add = addText === "0" ? "" : addText
      affix.rules.push({
        strip,
        add,
        flags: flagText.length === 0 ? [] : flagsOf(flagText, mode, aliases),
        condition: conditionPattern(d ?? ".", affix.prefix)
      })
    }
  }
  return { mode, affixes, aliases, barred }
}

const flagsOf = (text: string, mode: FlagMode, aliases: ReadonlyArray<string>): Array<string> => {
  // With AF, a stem's or rule's flags are the number of an alias line (1-based).
  if (aliases.length > 0 && /^\d+$/.test(text)) return splitFlags(aliases[Number(text) - 1] ?? "", mode)
  return splitFlags(text, mode)
}

const applies = (rule: Rule, word: string, prefix: boolean): boolean =>
  (prefix ? word.startsWith(rule.strip) : word.endsWith(rule.strip)) &&
  word.length > rule.strip.length &&
  (rule.condition === undefined || rule.condition.test(word))

const apply = (rule: Rule, word: string, prefix: boolean): string =>
  prefix ? rule.add + word.slice(rule.strip.length) : word.slice(0, word.length - rule.strip.length) + rule.add

/** Every word form of a dictionary (`.aff` and `.dic` text) that is a run of letters. */
export const expandHunspell = (affText: string, dicText: string): Array<string> => {
  const { mode, affixes, aliases, barred } = parseAffixes(affText)
  const isBarred = (flags: ReadonlyArray<string>) => flags.some((f) => barred.has(f))
  const forms = new Set<string>()
  const keep = (form: string, flags: ReadonlyArray<string>) => {
    if (form.length > 0 && LETTERS.test(form) && !isBarred(flags)) forms.add(form)
  }
  const lines = dicText.split(/\r?\n/)
  // The first line is the stem count; some lists start with comment lines ("/ …", "\t…").
  for (let k = 1; k < lines.length; k++) {
    const entry = lines[k]!.split(/[\t ]/)[0]!
    if (entry.length === 0 || entry.startsWith("/")) continue
    const slash = entry.search(/(?<!\\)\//)
    const stem = (slash < 0 ? entry : entry.slice(0, slash)).replace(/\\\//g, "/")
    const flags = slash < 0 ? [] : flagsOf(entry.slice(slash + 1), mode, aliases)
    keep(stem, flags)
    const prefixes: Array<Affix> = []
    const suffixes: Array<Affix> = []
    for (const flag of flags) {
      const affix = affixes.get(flag)
      if (affix !== undefined && !barred.has(flag)) (affix.prefix ? prefixes : suffixes).push(affix)
    }
    const suffixed: Array<{ form: string; cross: boolean }> = []
    for (const affix of suffixes)
      for (const rule of affix.rules) {
        if (!LETTERS.test(rule.add) || !applies(rule, stem, false)) continue
        const form = apply(rule, stem, false)
        keep(form, rule.flags)
        suffixed.push({ form, cross: affix.cross })
        // Continuation suffixes ("twofold" suffixes), one level deep.
        for (const flag of rule.flags) {
          const next = affixes.get(flag)
          if (next === undefined || next.prefix || barred.has(flag)) continue
          for (const second of next.rules)
            if (LETTERS.test(second.add) && applies(second, form, false)) keep(apply(second, form, false), second.flags)
        }
      }
    for (const affix of prefixes)
      for (const rule of affix.rules) {
        if (!LETTERS.test(rule.add)) continue
        if (applies(rule, stem, true)) keep(apply(rule, stem, true), rule.flags)
        if (!affix.cross) continue
        for (const { form, cross } of suffixed)
          if (cross && applies(rule, form, true)) keep(apply(rule, form, true), rule.flags)
      }
  }
  return [...forms]
}

/**
 * The input conversions (ICONV) of an `.aff` file that turn a run of letters into the list's spelling, in order:
 * Hunspell applies them to a word before checking it. The Dutch list spells "ij" as the one letter "ĳ"
 * ("bakkerĳ", "ĲSSEL"), which print and the recognizer write as two; the apostrophes the French and English
 * lists convert are never in a run of letters.
 */
export const inputConversions = (aff: string): ReadonlyArray<readonly [string, string]> =>
  aff.split(/\r?\n/).flatMap((line) => {
    const [key, from, to] = line.trim().split(/\s+/)
    return key === "ICONV" && from !== undefined && to !== undefined && LETTERS.test(from) && LETTERS.test(to)
      ? [[from, to] as const]
      : []
  })
