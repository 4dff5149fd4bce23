/**
 * The recognizer's classes: 0 is the CTC blank, 1..N the dictionary entries in file order, N + 1 a space (how
 * PaddleOCR builds them with use_space_char).
 */
export type Labels = ReadonlyArray<string>

/** A dictionary file (one entry per line, `\n` or `\r\n`, trailing newline optional) as recognizer labels. */
export const parseDictionary = (text: string): Labels => {
  const lines = text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
  return ["", ...lines, " "]
}

/** One reading of a character: a label and the highest probability the model gave its class over the run. */
export interface Alternative {
  readonly text: string
  readonly prob: number
}

/**
 * One emitted character: its label, the first and last timestep of its run, and its highest probability there; for
 * a letter with marks, what the model gave each mark of that letter (`withAlternatives` in `lexicon.ts`) and the
 * letter whatever its mark (`withLetters`).
 */
export interface CtcChar {
  readonly text: string
  readonly first: number
  readonly last: number
  readonly prob: number
  readonly alternatives?: ReadonlyArray<Alternative> | undefined
  /**
   * For a letter with marks, or a character its word says it cannot be told from another (its case, a figure's
   * look-alike, a stop: `kinOf`), the highest probability the model gave it with those at one timestep of the run
   * (`withLetters` in `lexicon.ts`): how sure it is of the character as the word reads it, the mark aside; the mark
   * kept only where the page settles it (`settleLetters` in `language.ts`).
   */
  readonly letter?: number | undefined
  /**
   * The same summed over the characters its word says it cannot be told from (`withLetters`), its marks apart: what
   * `letter` falls back to where the page does not settle the mark.
   */
  readonly kin?: number | undefined
}

/** Whether a character is a letter (`\p{L}`): the runs the word lists are checked on. */
export const isLetter = (text: string): boolean => /^\p{L}$/u.test(text)

/** Whether a character is a letter or a decimal figure: the runs a look-alike or a doubled letter is read in. */
export const isLetterOrFigure = (text: string): boolean => /^[\p{L}\p{Nd}]$/u.test(text)

/**
 * The maximal runs of a line's characters whose text `inRun` holds, as start and end (exclusive) offsets, none empty:
 * its letter runs (`isLetter`), its words (all but spaces) or its runs of letters and figures.
 */
export const runsOf = (
  chars: ReadonlyArray<CtcChar>,
  inRun: (text: string) => boolean
): Array<readonly [number, number]> => {
  const runs: Array<readonly [number, number]> = []
  let start = 0
  for (let k = 0; k <= chars.length; k++) {
    if (k < chars.length && inRun(chars[k]!.text)) continue
    if (k > start) runs.push([start, k])
    start = k + 1
  }
  return runs
}

/**
 * Greedy CTC decoding of a [T, C] softmax: the best class per timestep, runs merged, blanks dropped. Timesteps are
 * numbered from `offset` (a line recognised in pieces decodes each piece at its own offset).
 */
export const ctcDecode = (
  probs: Float32Array,
  timesteps: number,
  classes: number,
  labels: Labels,
  offset = 0
): Array<CtcChar> => {
  const out: Array<{ text: string; first: number; last: number; prob: number }> = []
  let previous = 0
  for (let t = 0; t < timesteps; t++) {
    const row = t * classes
    let best = 0
    let bestP = probs[row]!
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c]!
      if (p > bestP) {
        bestP = p
        best = c
      }
    }
    if (best !== 0 && best === previous) {
      const current = out[out.length - 1]!
      current.last = t + offset
      if (bestP > current.prob) current.prob = bestP
    } else if (best !== 0) {
      out.push({ text: labels[best] ?? "", first: t + offset, last: t + offset, prob: bestP })
    }
    previous = best
  }
  return out
}

/**
 * Spaces the model saw but did not choose: between two decoded characters, a space where the space class (the last
 * one) reaches `minProb` at a timestep between their runs, placed at its likeliest timestep. Where the Latin head
 * drops a narrow proportional space ("1.224,10 €", "IVA (21 %)") the space class still stands well above where it
 * stands between the letters of a word, while an ink-gap rule cannot tell these apart (the gap before "€" in Lato
 * is narrower than the comma's in Courier; MEASUREMENTS.md, "Spaces"). Characters are numbered
 * from `offset` as in `ctcDecode`; spaces already decoded are kept, except right after an opening mark (¿ ¡ ( [ {
 * « “ ‘), which no space follows in the languages of the dictionary: none is added there ("¿Cuánto" read "¿ Cuánto"
 * at 0.1) and a decoded one is dropped (the int8 recognizer, whose space class can win the timestep after "¿").
 */
const OPENING = new Set(["¿", "¡", "(", "[", "{", "«", "“", "‘"])

export const modelSpaces = (
  chars: ReadonlyArray<CtcChar>,
  probs: Float32Array,
  classes: number,
  minProb: number,
  offset = 0
): Array<CtcChar> => {
  const space = classes - 1
  const out: Array<CtcChar> = []
  for (const ch of chars) {
    const prev = out[out.length - 1]
    if (prev !== undefined && ch.text === " " && OPENING.has(prev.text)) continue
    if (prev !== undefined && prev.text !== " " && ch.text !== " " && !OPENING.has(prev.text)) {
      let best = -1
      let bestP = 0
      for (let t = prev.last + 1; t < ch.first; t++) {
        const p = probs[Math.round(t - offset) * classes + space] ?? 0
        if (p > bestP) {
          bestP = p
          best = t
        }
      }
      if (best >= 0 && bestP >= minProb) out.push({ text: " ", first: best, last: best, prob: bestP })
    }
    out.push(ch)
  }
  return out
}

/**
 * The crop column at the centre of a timestep. PP-OCRv3/v4 recognizers emit one timestep per 8 columns (the
 * default); the stride is measured from each output, so a CRNN-style model with 4 works too.
 */
export const timestepColumn = (t: number, stride = 8): number => (t + 0.5) * stride

/** The longest run of ink-free columns in [from, to). */
const longestGap = (ink: Uint8Array, from: number, to: number): number => {
  let best = 0
  let run = 0
  for (let i = Math.max(0, from); i < Math.min(ink.length, to); i++) {
    run = ink[i] === 1 ? 0 : run + 1
    if (run > best) best = run
  }
  return best
}

/**
 * Inserts the spaces the model dropped: between two characters with an ink-free gap of at least `minGap` crop
 * columns from the first's first timestep to the second's last (CTC fires anywhere over a glyph, at the edge of a
 * recognition window even past it, so the centres alone can sit inside the gap). Spaces the model did emit are
 * kept. A crop with no ink found (too flat to tell) is evidence of nothing: it gets no spaces.
 */
export const restoreSpaces = (
  chars: ReadonlyArray<CtcChar>,
  ink: Uint8Array,
  minGap: number,
  stride = 8
): Array<CtcChar> => {
  if (!ink.includes(1)) return [...chars]
  const out: Array<CtcChar> = []
  for (const ch of chars) {
    const prev = out[out.length - 1]
    if (prev !== undefined && prev.text !== " " && ch.text !== " ") {
      const gap = longestGap(ink, timestepColumn(prev.first, stride), timestepColumn(ch.last, stride) + 1)
      if (gap >= minGap) out.push({ text: " ", first: prev.last, last: ch.first, prob: 1 })
    }
    out.push(ch)
  }
  return out
}

/** A word along a line: its characters and its column range [start, end) in the crop. */
export interface CropWord {
  readonly text: string
  readonly chars: ReadonlyArray<CtcChar>
  readonly start: number
  readonly end: number
}

/**
 * Words as runs of non-space characters, each spanning the columns from its first character's first timestep to
 * its last character's last, then snapped to the ink: grown over ink that continues past a timestep boundary,
 * trimmed over blank columns, never past a neighbour's centre. Without any ink found, the timesteps alone.
 */
export const cropWords = (chars: ReadonlyArray<CtcChar>, ink: Uint8Array, stride = 8): Array<CropWord> => {
  const runs: Array<Array<CtcChar>> = []
  let current: Array<CtcChar> = []
  for (const ch of chars) {
    if (ch.text.trim() === "") {
      if (current.length > 0) runs.push(current)
      current = []
    } else current.push(ch)
  }
  if (current.length > 0) runs.push(current)
  const width = ink.length
  const snap = ink.includes(1)
  return runs.map((run, k) => {
    const head = run[0]!
    const tail = run[run.length - 1]!
    const leftLimit = k === 0 ? 0 : timestepColumn(runs[k - 1]![runs[k - 1]!.length - 1]!.last, stride) + 1
    const rightLimit = k === runs.length - 1 ? width : timestepColumn(runs[k + 1]![0]!.first, stride)
    let start = Math.min(Math.round(head.first * stride), width - 1)
    let end = Math.max(Math.min(Math.round((tail.last + 1) * stride), width), start + 1)
    const text = run.map((c) => c.text).join("")
    if (!snap) return { text, chars: run, start, end }
    if (ink[start] === 1) {
      while (start > leftLimit && ink[start - 1] === 1) start--
    } else {
      while (start < timestepColumn(head.first, stride) && start < width - 1 && ink[start] === 0) start++
    }
    end = Math.max(end, start + 1)
    if (ink[end - 1] === 1) {
      while (end < rightLimit && ink[end] === 1) end++
    } else {
      while (end > timestepColumn(tail.last, stride) + 1 && end > start + 1 && ink[end - 1] === 0) end--
    }
    return { text, chars: run, start, end }
  })
}

/** Full-width forms (U+FF01–FF5E) and the ideographic space as their ASCII twins. */
export const foldFullWidth = (text: string): string =>
  text.replace(/[\uff01-\uff5e\u3000]/g, (ch) =>
    ch === "\u3000" ? " " : String.fromCharCode(ch.charCodeAt(0) - 0xff01 + 0x21)
  )
