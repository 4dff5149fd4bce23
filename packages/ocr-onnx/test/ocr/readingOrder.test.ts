import { describe, expect, it } from "vitest"
import { estimateOrientation, type Placed, placedFromRect, readingOrder } from "../../src/internal/readingOrder.js"

const deg = Math.PI / 180

/** A named item: an upright text line given by its left edge, baseline-ish centre y, width and height. */
interface Named extends Placed {
  readonly name: string
}

const line = (name: string, x0: number, cy: number, width: number, height = 20): Named => ({
  name,
  cx: x0 + width / 2,
  cy,
  width,
  height,
  angle: 0
})

/** The layout turned by `angle` about (cx, cy), each item's reading direction with it. */
const turn = (items: ReadonlyArray<Named>, angle: number, cx = 300, cy = 400): Array<Named> =>
  items.map((it) => {
    const dx = it.cx - cx
    const dy = it.cy - cy
    return {
      ...it,
      cx: cx + dx * Math.cos(angle) - dy * Math.sin(angle),
      cy: cy + dx * Math.sin(angle) + dy * Math.cos(angle),
      angle: it.angle + angle
    }
  })

/** A fixed shuffle (reversed halves interleaved), so the input order says nothing about the answer. */
const shuffle = <A>(xs: ReadonlyArray<A>): Array<A> => {
  const r = [...xs].reverse()
  const half = Math.ceil(r.length / 2)
  return r.slice(0, half).flatMap((x, i) => (r[half + i] === undefined ? [x] : [x, r[half + i]!]))
}

const names = (items: ReadonlyArray<Named>): Array<string> => {
  const order = readingOrder(items)
  return order.rows.map((row) => row.map((i) => items[i]!.name).join(" "))
}

// A header, a two-column body whose columns have different leading, and a footer.
const twoColumns: Array<Named> = [
  line("title", 60, 60, 300, 28),
  ...Array.from({ length: 6 }, (_, k) => line(`L${k}`, 60, 120 + 24 * k, 220)),
  ...Array.from({ length: 5 }, (_, k) => line(`R${k}`, 320, 126 + 29 * k, 220)),
  line("footer", 60, 330, 480)
]

// An invoice table: a header row and item rows with four aligned cells, then totals.
// Rows 22 apart, 500 wide: at 1.5° the right end drops 13, more than the gap between rows.
const table: Array<Named> = [
  line("Description", 60, 300, 120, 18),
  line("Qty", 330, 300, 40, 18),
  line("Price", 420, 300, 50, 18),
  line("Amount", 500, 300, 60, 18),
  ...Array.from({ length: 6 }, (_, k) => [
    line(`item${k}`, 60, 326 + 22 * k, 200, 18),
    line(`q${k}`, 340, 326 + 22 * k, 30, 18),
    line(`p${k}`, 420, 326 + 22 * k, 50, 18),
    line(`a${k}`, 500, 326 + 22 * k, 60, 18)
  ]).flat(),
  line("Total", 420, 480, 50, 18),
  line("sum", 500, 480, 60, 18)
]
const tableRows = [
  "Description Qty Price Amount",
  ...Array.from({ length: 6 }, (_, k) => `item${k} q${k} p${k} a${k}`),
  "Total sum"
]

describe("readingOrder", () => {
  it("reads a shuffled single column top to bottom", () => {
    const column = Array.from({ length: 8 }, (_, k) => line(`l${k}`, 60, 100 + 25 * k, 200 + 10 * k))
    expect(names(shuffle(column))).toEqual(column.map((l) => l.name))
  })

  it("reads the header, then each column top to bottom, then the footer", () => {
    expect(names(shuffle(twoColumns))).toEqual([
      "title",
      ...Array.from({ length: 6 }, (_, k) => `L${k}`),
      ...Array.from({ length: 5 }, (_, k) => `R${k}`),
      "footer"
    ])
  })

  it("reads a table row by row, cells left to right", () => {
    expect(names(shuffle(table))).toEqual(tableRows)
  })

  it("reads a table skewed by 1.5° row by row, in the deskewed frame", () => {
    const skewedTable = turn(table, 1.5 * deg)
    const order = readingOrder(shuffle(skewedTable))
    expect(order.skew / deg).toBeCloseTo(1.5, 5)
    expect(order.rotation).toBe(0)
    expect(names(shuffle(skewedTable))).toEqual(tableRows)
    // The same boxes without their angles cannot be deskewed: the rows come out scrambled.
    expect(names(shuffle(skewedTable.map((it) => ({ ...it, angle: 0 }))))).not.toEqual(tableRows)
  })

  it("reads two columns skewed by -1.5° as columns", () => {
    expect(names(shuffle(turn(twoColumns, -1.5 * deg)))).toEqual(names(twoColumns))
  })

  it("reads an upside-down page (lines at 180°) in the text's own order", () => {
    const order = readingOrder(turn(table, Math.PI))
    expect(order.rotation).toBe(180)
    expect(Math.abs(order.skew)).toBeLessThan(1e-9)
    expect(names(shuffle(turn(table, Math.PI)))).toEqual(tableRows)
    expect(names(turn(twoColumns, Math.PI + 1 * deg))).toEqual(names(twoColumns))
  })

  it("groups text-layer words on one baseline into a row, left to right", () => {
    const words: Array<Named> = [
      { name: "world", ...placedFromRect(150, 100, 210, 114) },
      { name: "Hello", ...placedFromRect(100, 101, 145, 115) },
      { name: "Next", ...placedFromRect(100, 120, 140, 134) }
    ]
    expect(names(words)).toEqual(["Hello world", "Next"])
  })

  it("handles no items and one item", () => {
    expect(readingOrder([]).rows).toEqual([])
    expect(readingOrder([line("only", 0, 0, 50)]).rows).toEqual([[0]])
  })
})

describe("estimateOrientation", () => {
  it("takes the length-weighted median angle, ignoring short boxes and a stray line", () => {
    const items = [
      ...Array.from({ length: 5 }, (_, k) => ({ ...line(`l${k}`, 0, 30 * k, 300), angle: (0.8 + 0.1 * k) * deg })),
      { ...line("stray", 0, 200, 300), angle: 20 * deg },
      { ...line("dot", 0, 250, 20), angle: -30 * deg }
    ]
    const { rotation, skew } = estimateOrientation(items)
    expect(rotation).toBe(0)
    expect(skew / deg).toBeCloseTo(1.0, 5)
  })

  it("finds quarter turns from the lines' directions", () => {
    const vertical = Array.from({ length: 4 }, (_, k) => ({ ...line(`v${k}`, 30 * k, 0, 300), angle: 90.5 * deg }))
    const { rotation, skew } = estimateOrientation(vertical)
    expect(rotation).toBe(90)
    expect(skew / deg).toBeCloseTo(0.5, 5)
    expect(estimateOrientation(turn(vertical, Math.PI)).rotation).toBe(270)
  })
})
