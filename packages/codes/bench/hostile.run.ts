// Time to a result for hostile and large e-invoice XML, and the payload readers' throughput. Prints a table; the
// figures are recorded in MEASUREMENTS.md. `npm run bench -w @legible/codes`.
import { it } from "@effect/vitest"
import { Codes } from "../src/index.js"

const median = (run: () => void, times: number): number => {
  const samples: Array<number> = []
  for (let index = 0; index < times; index++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN
}

const invoiceOf = (lines: number) =>
  Codes.encodeFacturX({
    number: "BENCH-1",
    issueDate: "2024-01-31",
    currency: "EUR",
    seller: { name: "Seller SA", vat: "FR32123456789" },
    buyer: { name: "Buyer BV", vat: "NL123456789B01" },
    lines: Array.from({ length: lines }, (_, index) => ({
      name: `Article ${index + 1}`,
      quantity: (index % 7) + 1,
      unitPrice: 1 + (index % 13) * 0.37,
      taxRate: index % 3 === 0 ? 5.5 : 20
    }))
  })

const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`
).join("")}]><r>&lol9;</r>`

it("hostile and large XML: time to a result", () => {
  const thousand = invoiceOf(1000)
  const threeThousand = invoiceOf(3200)
  const tenThousand = invoiceOf(10_000)
  const huge = thousand + "<!-- pad -->".repeat(Math.ceil((50 * 1024 * 1024) / 12))
  const cases: ReadonlyArray<readonly [string, string | Uint8Array]> = [
    ["billion laughs", laughs],
    ["50 MB string (size cap)", huge],
    ["50 MB bytes (size cap)", new Uint8Array(50 * 1024 * 1024)],
    [`truncated 1,000-line Factur-X (${(thousand.length / 1024).toFixed(0)} KB)`, thousand.slice(0, -200)],
    ["well-formed 1,000-line Factur-X", thousand],
    [
      `truncated 3,200-line Factur-X (${(threeThousand.length / 1024 / 1024).toFixed(2)} MiB, near the cap)`,
      threeThousand.slice(0, -200)
    ],
    [`well-formed 10,000-line Factur-X (${(tenThousand.length / 1024 / 1024).toFixed(1)} MB)`, tenThousand],
    ["100,000-deep nesting", `${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}`]
  ]
  console.log("| input | result | median ms |\n|---|---|---|")
  for (const [name, input] of cases) {
    // The 10,000-line document is over the default cap: it is read with a larger one to show the parse rate.
    const limits = { maxBytes: name.startsWith("well-formed 10,000") ? 16 * 1024 * 1024 : Codes.defaultLimits.maxBytes }
    const read = Codes.readInvoiceXml(input, limits)
    const outcome =
      read._tag === "Invoice" ? `Invoice, ${read.lines.length} lines` : read.problems.map((p) => p.kind).join(",")
    console.log(`| ${name} | ${outcome} | ${median(() => Codes.readInvoiceXml(input, limits), 9).toFixed(2)} |`)
  }
})

it("payload readers: microseconds per decode", () => {
  const payloads = [
    Codes.encodeAfip({
      issueDate: "2023-02-14",
      cuit: "20131465685",
      pointOfSale: 3,
      documentType: 1,
      number: 3668,
      total: 144615,
      authorizationCode: "73075542026320"
    }),
    Codes.encodeVeriFactu({ nif: "89890001K", documentNumber: "12345678&G33", issueDate: "2024-01-01", total: 241.4 }),
    Codes.encodeEpc({ beneficiary: "Red Cross", iban: "BE72000000001616", total: 1, text: "Urgency fund" }),
    "https://example.com/unrelated"
  ]
  const rounds = 20_000
  const perDecode =
    (median(() => {
      for (let index = 0; index < rounds; index++) Codes.decode(payloads[index % payloads.length] ?? "")
    }, 5) *
      1000) /
    rounds
  console.log(`decode: ${perDecode.toFixed(2)} µs per payload (median of 5 × ${rounds}, mixed kinds)`)
})
