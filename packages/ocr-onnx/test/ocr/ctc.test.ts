import { describe, expect, it } from "vitest"
import {
  type CtcChar,
  cropWords,
  ctcDecode,
  foldFullWidth,
  modelSpaces,
  parseDictionary,
  restoreSpaces,
  timestepColumn
} from "../../src/internal/ocr/ctc.js"

// blank, a, b, c, -, space
const labels = parseDictionary("a\nb\nc\n-")
const C = labels.length

/** A [T, C] softmax: at each timestep the given class with probability p, the rest spread evenly. */
const softmax = (steps: ReadonlyArray<readonly [label: string, p: number]>): Float32Array => {
  const out = new Float32Array(steps.length * C)
  steps.forEach(([label, p], t) => {
    const k = label === "_" ? 0 : labels.indexOf(label)
    for (let c = 0; c < C; c++) out[t * C + c] = c === k ? p : (1 - p) / (C - 1)
  })
  return out
}

/** An ink map: `#` ink, `.` blank, one character per crop column. */
const ink = (pattern: string): Uint8Array => Uint8Array.from(pattern, (ch) => (ch === "#" ? 1 : 0))

describe("parseDictionary", () => {
  it("puts the CTC blank first and a space last, with or without a trailing newline, LF or CRLF", () => {
    expect(parseDictionary("a\nb")).toEqual(["", "a", "b", " "])
    expect(parseDictionary("a\r\nb\r\n")).toEqual(["", "a", "b", " "])
  })
})

describe("ctcDecode", () => {
  it("merges runs, drops blanks, and keeps each character's first and last timestep and best probability", () => {
    const probs = softmax([
      ["a", 0.9],
      ["a", 0.95],
      ["_", 0.9],
      ["b", 0.6],
      ["_", 0.9],
      ["b", 0.8],
      ["b", 0.7],
      [" ", 0.9],
      ["c", 0.99],
      ["_", 0.9]
    ])
    const chars = ctcDecode(probs, 10, C, labels)
    expect(chars.map((c) => c.text).join("")).toBe("abb c")
    expect(chars.map((c) => [c.first, c.last])).toEqual([
      [0, 1],
      [3, 3],
      [5, 6],
      [7, 7],
      [8, 8]
    ])
    expect(chars[0]!.prob).toBeCloseTo(0.95, 5)
    expect(chars[2]!.prob).toBeCloseTo(0.8, 5)
  })

  it("numbers timesteps from an offset (a line recognised in pieces)", () => {
    const chars = ctcDecode(softmax([["c", 0.9]]), 1, C, labels, 40)
    expect(chars).toEqual([{ text: "c", first: 40, last: 40, prob: expect.closeTo(0.9, 5) }])
  })
})

const char = (text: string, first: number, last = first, prob = 0.9): CtcChar => ({ text, first, last, prob })

/** Like `softmax`, with the space class's probability set where a third number is given. */
const withSpace = (steps: ReadonlyArray<readonly [string, number, number?]>): Float32Array => {
  const probs = softmax(steps.map(([label, p]) => [label, p] as const))
  steps.forEach(([, , space], t) => {
    if (space !== undefined) probs[t * C + C - 1] = space
  })
  return probs
}

describe("modelSpaces", () => {
  // The Latin head reads "10€": the space it saw between 0 and € loses to the blank.
  const steps = (space: number) =>
    withSpace([
      ["a", 0.9],
      ["_", 0.9, 0.001],
      ["b", 0.9],
      ["_", 0.6, 0.002],
      ["_", 0.5, space],
      ["c", 0.9]
    ])

  it("puts a space where the space class reaches the threshold between two characters, at its likeliest step", () => {
    const probs = steps(0.03)
    const chars = ctcDecode(probs, 6, C, labels)
    expect(chars.map((c) => c.text).join("")).toBe("abc")
    const out = modelSpaces(chars, probs, C, 0.02)
    expect(out.map((c) => c.text).join("")).toBe("ab c")
    expect(out[2]).toEqual({ text: " ", first: 4, last: 4, prob: expect.closeTo(0.03, 5) })
  })

  it("adds nothing where the space stays under the threshold, or between adjacent timesteps", () => {
    const probs = steps(0.015)
    const chars = ctcDecode(probs, 6, C, labels)
    expect(
      modelSpaces(chars, probs, C, 0.02)
        .map((c) => c.text)
        .join("")
    ).toBe("abc")
    // Characters in consecutive timesteps leave no step for a space, whatever the space class says there.
    const tight = withSpace([
      ["a", 0.6, 0.3],
      ["b", 0.6, 0.3]
    ])
    expect(
      modelSpaces(ctcDecode(tight, 2, C, labels), tight, C, 0.02)
        .map((c) => c.text)
        .join("")
    ).toBe("ab")
  })

  it("adds no space after an opening mark", () => {
    const marks = parseDictionary("¿\nb")
    const probs = new Float32Array(3 * marks.length)
    probs[1] = 0.9
    probs[marks.length] = 0.5
    probs[2 * marks.length - 1] = 0.4
    probs[2 * marks.length + 2] = 0.9
    const chars = ctcDecode(probs, 3, marks.length, marks)
    expect(chars.map((c) => c.text).join("")).toBe("¿b")
    expect(
      modelSpaces(chars, probs, marks.length, 0.1)
        .map((c) => c.text)
        .join("")
    ).toBe("¿b")
  })

  it("drops a decoded space right after an opening mark, and keeps one before it", () => {
    // Classes: blank, ¿, b, space. Timesteps: ¿, space (decoded: it wins), b, space, ¿, b.
    const marks = parseDictionary("¿\nb")
    const c = marks.length
    const probs = new Float32Array(6 * c)
    for (const [t, k] of [
      [0, 1],
      [1, 3],
      [2, 2],
      [3, 3],
      [4, 1],
      [5, 2]
    ] as const)
      probs[t * c + k] = 0.9
    const chars = ctcDecode(probs, 6, c, marks)
    expect(chars.map((ch) => ch.text).join("")).toBe("¿ b ¿b")
    expect(
      modelSpaces(chars, probs, c, 0.1)
        .map((ch) => ch.text)
        .join("")
    ).toBe("¿b ¿b")
  })

  it("keeps the spaces already decoded without doubling them, and reads a piece at its timestep offset", () => {
    const probs = withSpace([
      ["a", 0.9],
      [" ", 0.9],
      ["_", 0.5, 0.4],
      ["b", 0.9]
    ])
    const chars = ctcDecode(probs, 4, C, labels, 40)
    const out = modelSpaces(chars, probs, C, 0.02, 40)
    expect(out.map((c) => [c.text, c.first])).toEqual([
      ["a", 40],
      [" ", 41],
      ["b", 43]
    ])
    const noSpace = steps(0.4)
    const offset = modelSpaces(ctcDecode(noSpace, 6, C, labels, 16), noSpace, C, 0.02, 16)
    expect(offset.map((c) => [c.text, c.first])).toEqual([
      ["a", 16],
      ["b", 18],
      [" ", 20],
      ["c", 21]
    ])
  })
})

describe("timestepColumn", () => {
  it("puts a timestep at the centre of its stride of columns", () => {
    expect([timestepColumn(0), timestepColumn(2), timestepColumn(2, 4)]).toEqual([4, 20, 10])
  })
})

describe("restoreSpaces", () => {
  // Timestep t sits over crop column 8t + 4.
  const columns = ink(`${"#".repeat(20)}${".".repeat(14)}${"#".repeat(14)}${".".repeat(2)}${"#".repeat(14)}`)

  it("inserts a space where the ink gap between two characters is at least the minimum", () => {
    const chars = [char("a", 1), char("b", 4), char("c", 7)]
    const out = restoreSpaces(chars, columns, 12)
    expect(out.map((c) => c.text).join("")).toBe("a bc")
  })

  it("adds no space on a crop without any ink found", () => {
    const out = restoreSpaces([char("a", 1), char("b", 6)], new Uint8Array(64), 12)
    expect(out.map((c) => c.text).join("")).toBe("ab")
  })

  it("keeps the model's own spaces and adds none under the minimum", () => {
    expect(
      restoreSpaces([char("a", 1), char(" ", 3), char("b", 4), char("c", 7)], columns, 12)
        .map((c) => c.text)
        .join("")
    ).toBe("a bc")
    expect(
      restoreSpaces([char("a", 1), char("b", 4)], columns, 15)
        .map((c) => c.text)
        .join("")
    ).toBe("ab")
  })
})

describe("cropWords", () => {
  it("splits on spaces and spans each word's ink from its first to its last character", () => {
    // Word 1 ink at columns 6..29 ("ab", timesteps 1 and 3), word 2 at 42..61 ("c-", timesteps 5 and 7).
    const columns = ink(`${".".repeat(6)}${"#".repeat(24)}${".".repeat(12)}${"#".repeat(20)}${".".repeat(10)}`)
    const words = cropWords([char("a", 1), char("b", 3), char(" ", 4), char("c", 5), char("-", 7)], columns)
    expect(words.map((w) => [w.text, w.start, w.end])).toEqual([
      ["ab", 6, 30],
      ["c-", 42, 62]
    ])
  })

  it("grows a word over ink past its timesteps, up to the neighbour", () => {
    const columns = ink(`${"#".repeat(40)}${".".repeat(24)}`)
    const [word] = cropWords([char("a", 2), char("b", 3)], columns)
    expect([word!.start, word!.end]).toEqual([0, 40])
  })

  it("spans the timesteps alone when no ink was found", () => {
    const [word] = cropWords([char("a", 2), char("b", 3, 4)], new Uint8Array(64))
    expect([word!.start, word!.end]).toEqual([16, 40])
  })

  it("gives no word for a line of spaces", () => {
    expect(cropWords([char(" ", 0), char(" ", 2)], ink("#".repeat(24)))).toEqual([])
  })
})

describe("foldFullWidth", () => {
  it("maps full-width forms and the ideographic space to ASCII and leaves the rest", () => {
    expect(foldFullWidth("Ａ１，（ｘ）\u3000é中")).toBe("A1,(x) é中")
  })
})
