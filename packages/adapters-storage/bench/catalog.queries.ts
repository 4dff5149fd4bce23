/**
 * Queries of the catalog benchmark: names and tax ids as an OCR engine misreads them. A seeded PRNG picks 1–3
 * character errors per name from the usual OCR confusions (rn↔m, cl↔d, o↔0, l↔1, e↔c, a↔o, u↔v, n↔h, S↔5, B↔8),
 * dropped and doubled letters, and lost or extra spaces; on top of that, and free for normalization, accents and
 * case may be lost and the legal form re-spelled ("S.A. de C.V." → "SA DE CV").
 */

/** A deterministic PRNG (mulberry32): the same seed gives the same queries in every run. */
export const prng = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Pairs an OCR engine confuses, both ways. */
const CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ["rn", "m"],
  ["cl", "d"],
  ["o", "0"],
  ["O", "0"],
  ["l", "1"],
  ["I", "1"],
  ["i", "l"],
  ["e", "c"],
  ["a", "o"],
  ["u", "v"],
  ["n", "h"],
  ["S", "5"],
  ["B", "8"],
  ["t", "f"],
  ["g", "q"]
]

const LEGAL_RESPELLINGS: ReadonlyArray<readonly [string, string]> = [
  ["S.A. de C.V.", "SA DE CV"],
  ["S.A. de C.V.", "S.A. DE C.V."],
  ["S.A.", "SA"],
  ["S.L.", "SL"],
  ["S.R.L.", "SRL"],
  ["S.L.U.", "SLU"],
  ["Ltda.", "LTDA"],
  ["Inc.", "INC"]
]

const stripAccents = (text: string) => text.normalize("NFD").replace(/\p{M}+/gu, "")

type Random = () => number

const pick = <A>(random: Random, items: ReadonlyArray<A>): A => {
  const item = items[Math.floor(random() * items.length)]
  if (item === undefined) throw new Error("pick from an empty list")
  return item
}

/** One character-level error at a random place; the text is returned unchanged when none applies. */
const oneError = (random: Random, text: string): string => {
  const kind = random()
  if (kind < 0.55) {
    // A confusion: find the places where either side of a random pair occurs, replace one with the other side.
    for (let attempt = 0; attempt < 10; attempt++) {
      const [a, b] = pick(random, CONFUSIONS)
      const [from, to] = random() < 0.5 ? [a, b] : [b, a]
      const places: Array<number> = []
      for (let i = text.indexOf(from); i >= 0; i = text.indexOf(from, i + 1)) places.push(i)
      if (places.length > 0) {
        const at = pick(random, places)
        return text.slice(0, at) + to + text.slice(at + from.length)
      }
    }
    return text
  }
  const letters = [...text.matchAll(/\p{L}/gu)].map((m) => m.index)
  if (letters.length === 0) return text
  const at = pick(random, letters)
  if (kind < 0.75) return text.slice(0, at) + text.slice(at + 1)
  if (kind < 0.9) return text.slice(0, at) + text.charAt(at) + text.slice(at)
  const spaces = [...text.matchAll(/ /g)].map((m) => m.index)
  if (spaces.length > 0 && random() < 0.5) {
    const space = pick(random, spaces)
    return text.slice(0, space) + text.slice(space + 1)
  }
  return `${text.slice(0, at)} ${text.slice(at)}`
}

/** A name as an OCR engine might read it: 1–3 errors (45% / 35% / 20%), plus free variations. */
export const corruptName = (random: Random, name: string): string => {
  let text = name
  for (const [from, to] of LEGAL_RESPELLINGS) {
    if (text.endsWith(from) && random() < 0.5) {
      text = text.slice(0, text.length - from.length) + to
      break
    }
  }
  if (random() < 0.4) text = stripAccents(text)
  if (random() < 0.3) text = text.toUpperCase()
  const r = random()
  const errors = r < 0.45 ? 1 : r < 0.8 ? 2 : 3
  for (let i = 0; i < errors; i++) text = oneError(random, text)
  return text
}

/** Confusions inside identifiers (what folding must absorb), and one true error with probability `slip`. */
export const corruptIdentifier = (random: Random, cif: string, slip: number): string => {
  const swaps: Readonly<Record<string, string>> = { "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G" }
  let text = [...cif].map((c) => (swaps[c] !== undefined && random() < 0.2 ? swaps[c] : c)).join("")
  if (random() < slip) {
    const digits = [...text.matchAll(/[0-9]/g)].map((m) => m.index)
    const at = pick(random, digits.length > 0 ? digits : [0])
    const next = String((Number(text.charAt(at)) + 1 + Math.floor(random() * 8)) % 10)
    text = text.slice(0, at) + next + text.slice(at + 1)
  }
  return text
}
