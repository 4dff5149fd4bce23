/**
 * RELIABILITY.md D19–D25 (uploads, parsing, downloads) against the built server: `serve --role api` and one
 * `serve --role worker` process on a fresh PostgreSQL database, documents in `LEGIBLE_DOCUMENTS_DIR`. Hostile files
 * are generated here (`support/de-files.ts`) or taken from ../shared/data/odd-pdfs; every figure is printed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { request as httpRequest } from "node:http"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Json, SAMPLE_PDF } from "../test/support/http.js"
import { ROOT, type Running } from "../test/support/process.js"
import * as Files from "./support/de-files.js"
import {
  awaitAllFinal,
  FINAL,
  memoryOf,
  rawGet,
  rows,
  SKILL,
  type Stack,
  startStack,
  submitRaw
} from "./support/de-stack.js"

const BODY_LIMIT = 8 * 1024 * 1024
const ODD_PDFS = Path.join(ROOT, "../shared/data/odd-pdfs")

let stack: Stack

beforeAll(async () => {
  stack = await startStack({
    env: {
      LEGIBLE_MAX_BODY_BYTES: String(BODY_LIMIT),
      LEGIBLE_MAX_ATTEMPTS: "2",
      LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS: "10",
      LEGIBLE_WORKER_CONCURRENCY: "2"
    }
  })
})

afterAll(async () => {
  await stack?.stop()
})

const isErrorBody = (body: unknown): boolean =>
  typeof body === "object" && body !== null && typeof (body as Json).error === "string" && (body as Json).error !== ""

/** Whether a process is still running: no exit code and no signal (a native abort is SIGABRT, not an exit code). */
const alive = (p: Running): boolean => p.child.exitCode === null && p.child.signalCode === null

const submitted = (reply: { status: number; body: unknown }): string => {
  if (reply.status !== 202) throw new Error(`expected 202, got ${reply.status} ${JSON.stringify(reply.body)}`)
  return (reply.body as Json).extraction_id as string
}

/** What a streamed upload got: the status and body, how many bytes went out before it, and how long it took. */
interface Streamed {
  readonly status: number
  readonly body: string
  readonly sentBytes: number
  readonly ms: number
}

/**
 * POSTs a JSON submission whose `file_base64` goes on for `totalBytes`, in 64 KiB writes, chunked (no
 * `Content-Length`) unless `declare` is set; stops writing as soon as the response arrives.
 */
const streamUpload = (url: string, key: string, totalBytes: number, declare: boolean): Promise<Streamed> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const head = Buffer.from(`{"file_name":"big.pdf","skill":"${SKILL}","file_base64":"`)
    const block = Buffer.alloc(64 * 1024, "A")
    let sent = 0
    let answered = false
    const req = httpRequest(url, {
      method: "POST",
      headers: {
        "x-api-key": key,
        "content-type": "application/json",
        ...(declare ? { "content-length": String(totalBytes) } : {})
      }
    })
    req.on("response", (res) => {
      answered = true
      const chunks: Array<Buffer> = []
      res.on("data", (b: Buffer) => chunks.push(b))
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          sentBytes: sent,
          ms: performance.now() - started
        })
        req.destroy()
      })
    })
    req.on("error", (error) => {
      if (!answered) reject(new Error(`upload failed before any response after ${sent} bytes: ${error.message}`))
    })
    const pump = () => {
      while (!answered && sent < totalBytes) {
        const piece = sent === 0 ? head : block.subarray(0, Math.min(block.length, totalBytes - sent))
        sent += piece.length
        if (!req.write(piece)) {
          req.once("drain", pump)
          return
        }
      }
      if (!answered && sent >= totalBytes) req.end()
    }
    pump()
  })

describe("D uploads, parsing, downloads (api + 1 worker on PostgreSQL)", () => {
  it("D19 a body over LEGIBLE_MAX_BODY_BYTES (8 MiB) → 413 quickly, memory bounded: 10× the limit streamed chunked, 5 rounds, and a declared Content-Length", async () => {
    const pid = stack.server.pid
    // Warm up the submission path (JSON decoding, type sniffing) so its one-off allocations are not counted.
    submitted(await submitRaw(stack, Files.invoicePdf(), "warm-up.pdf"))
    const before = memoryOf(pid)
    const rounds: Array<Streamed> = []
    for (let round = 0; round < 5; round++) {
      rounds.push(await streamUpload(`${stack.server.url}/v1/extractions`, stack.key, 10 * BODY_LIMIT, false))
    }
    const declared = await streamUpload(`${stack.server.url}/v1/extractions`, stack.key, 10 * BODY_LIMIT, true)
    const after = memoryOf(pid)
    for (const r of [...rounds, declared]) {
      expect(r.status).toBe(413)
      expect(isErrorBody(JSON.parse(r.body))).toBe(true)
    }
    const slowest = Math.max(...rounds.map((r) => r.ms))
    const mostSent = Math.max(...rounds.map((r) => r.sentBytes))
    const growth = after.rssMb - before.rssMb
    const peakGrowth = after.peakMb - before.peakMb
    console.log(
      `D19: 413 after ≤ ${(mostSent / 2 ** 20).toFixed(1)} MiB of 80 MiB sent (chunked), slowest ${slowest.toFixed(0)} ms; ` +
        `declared 80 MiB → 413 in ${declared.ms.toFixed(0)} ms after ${(declared.sentBytes / 2 ** 20).toFixed(1)} MiB; ` +
        `api RSS ${before.rssMb.toFixed(0)} → ${after.rssMb.toFixed(0)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(0)}), ` +
        `peak ${before.peakMb.toFixed(0)} → ${after.peakMb.toFixed(0)} MB`
    )
    // Quickly: the whole 80 MiB is never waited for; the server stops reading near the limit.
    expect(slowest).toBeLessThan(5_000)
    expect(mostSent).toBeLessThan(BODY_LIMIT * 3)
    // Bounded: 400 MiB sent in five bodies of 80 MiB, and neither the resident set nor its peak grew by as much as
    // ONE whole body would take (the limit's order: what was read before the cut, and the heap's slack).
    expect(growth).toBeLessThan(10 * (BODY_LIMIT / 2 ** 20))
    expect(peakGrowth).toBeLessThan(10 * (BODY_LIMIT / 2 ** 20))
    // And the server still serves.
    expect((await stack.api.key("GET", "/v1/extractions?limit=1", stack.key)).status).toBe(200)
  })

  it("D20 strict base64: invalid characters, bad padding, data-URL prefix, URL-safe alphabet, whitespace, empty → 400 {error} (13 cases)", async () => {
    const valid = Buffer.from(Files.invoicePdf()).toString("base64")
    const cases: Record<string, string> = {
      empty: "",
      "only line breaks": "\r\n\r\n",
      "a '*' inside": `${valid.slice(0, 40)}*${valid.slice(41)}`,
      "a space inside": `${valid.slice(0, 40)} ${valid.slice(41)}`,
      "a NUL inside": `${valid.slice(0, 40)}\u0000${valid.slice(41)}`,
      "non-ASCII inside": `${valid.slice(0, 40)}é${valid.slice(41)}`,
      "data-URL prefix": `data:application/pdf;base64,${valid}`,
      "URL-safe alphabet": valid.replaceAll("/", "_").replaceAll("+", "-"),
      "length not a multiple of 4": valid.replace(/=+$/, "").slice(0, -1),
      "padding in the middle": `${valid.slice(0, 8)}==${valid.slice(10)}`,
      "three '='": "QUJD===",
      "non-canonical final symbol": "QR==",
      "missing padding": "QUI"
    }
    const results: Array<string> = []
    for (const [name, file_base64] of Object.entries(cases)) {
      const reply = await stack.api.key("POST", "/v1/extractions", stack.key, {
        file_name: "doc.pdf",
        skill: SKILL,
        file_base64
      })
      expect(reply.status, name).toBe(400)
      expect(isErrorBody(reply.body), name).toBe(true)
      results.push(`${name}: ${reply.status}`)
    }
    // The same bytes, well encoded (also wrapped at 76 columns as `base64` tools do), are accepted.
    submitted(await submitRaw(stack, Files.invoicePdf(), "ok.pdf"))
    const wrapped = valid.replace(/(.{76})/g, "$1\r\n")
    submitted(
      await stack.api.key("POST", "/v1/extractions", stack.key, {
        file_name: "wrapped.pdf",
        skill: SKILL,
        file_base64: wrapped
      })
    )
    console.log(
      `D20: ${results.length} malformed Base64 inputs → ${results.length} × 400 {error}; valid and 76-column-wrapped → 202`
    )
  })

  it("D21 the type comes from the bytes: HTML, ZIP, EXE, ELF, SVG, text and JSON named .pdf → 400 {error}; a PDF named .exe → 202, served as application/pdf", async () => {
    const disguised: Record<string, Uint8Array> = {
      html: new TextEncoder().encode("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>"),
      zip: Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, ...new Array(40).fill(0)]),
      exe: Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, ...new Array(118).fill(0)]),
      elf: Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, ...new Array(56).fill(0)]),
      svg: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      text: new TextEncoder().encode("Numero de factura: F-1\nTotal: 10,00\n"),
      json: new TextEncoder().encode('{"numero": "F-1"}')
    }
    for (const [name, bytes] of Object.entries(disguised)) {
      const reply = await submitRaw(stack, bytes, `factura-${name}.pdf`)
      expect(reply.status, name).toBe(400)
      expect(isErrorBody(reply.body), name).toBe(true)
    }
    const id = submitted(await submitRaw(stack, Files.invoicePdf(), "setup.exe"))
    const download = await rawGet(`${stack.server.url}/v1/extractions/${id}/document`, { "x-api-key": stack.key })
    expect(download.status).toBe(200)
    expect(download.headers.find(([name]) => name === "content-type")?.[1]).toBe("application/pdf")
    console.log(
      `D21: ${Object.keys(disguised).length} non-documents named .pdf → 400 {error}; a PDF named setup.exe → 202, application/pdf`
    )
  })

  it("D22 pixel floods (100,000² header, 99 MP decodable), PDF bombs (100,000 pages, page-tree cycle, object cycles, 1 GB Flate stream, huge MediaBox), encrypted PDFs → error within seconds (a cycle mupdf skips and the 99 MP page: a final state); the worker keeps its pid; the next jobs complete", async () => {
    const worker = stack.workers[0]!
    const bomb = await Files.flateBomb(1024)
    const giant = await Files.giantPng()
    const refused: Record<string, Uint8Array> = {
      "pixel flood 100,000 × 100,000 PNG": Files.pixelFlood(),
      "100,000 pages (shared page tree)": Files.pagesBomb(5),
      "page tree containing itself": Files.pageTreeCycle(),
      "object cycles + self-drawing form": Files.objectCycles(),
      "1 GB inflating Flate stream": bomb,
      "huge MediaBox (10^7 pt)": Files.hugeMediaBox(),
      "AES-256 encrypted (mupdf)": Files.encryptedPdf(),
      "AES-256 R6 encrypted (odd-pdfs issue6010_1)": readFileSync(Path.join(ODD_PDFS, "issue6010_1.pdf")),
      "AES-256 R6, unknown password (odd-pdfs print_protection)": readFileSync(
        Path.join(ODD_PDFS, "print_protection.pdf")
      )
    }
    /** Submits the files together; returns each one's stored row and seconds from its submission to final. */
    const batch = async (files: Record<string, Uint8Array>) => {
      const started = new Map<string, number>()
      const ids = new Map<string, string>()
      for (const [name, bytes] of Object.entries(files)) {
        const id = submitted(await submitRaw(stack, bytes, `${name}.pdf`))
        ids.set(name, id)
        started.set(id, performance.now())
      }
      const finishedAt = new Map<string, number>()
      const deadline = performance.now() + 180_000
      while (finishedAt.size < ids.size && performance.now() < deadline) {
        for (const [id, row] of await rows(stack, [...ids.values()])) {
          if (!finishedAt.has(id) && FINAL.includes(row.status as string)) finishedAt.set(id, performance.now())
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const found = await rows(stack, [...ids.values()])
      return [...ids].map(([name, id]) => ({
        name,
        row: found.get(id)!,
        seconds: ((finishedAt.get(id) ?? Number.NaN) - started.get(id)!) / 1000
      }))
    }
    const line = (r: { name: string; row: Record<string, unknown>; seconds: number }) =>
      `  ${r.name}: ${r.row.status} in ${r.seconds.toFixed(1)} s, ${r.row.job_attempts} attempt(s) (${String(r.row.error_message).slice(0, 100)})`

    const before = memoryOf(worker.pid)
    const first = await batch(refused)
    for (const { name, row } of first) {
      // Refused for what they are, after one attempt (not retried as if the machine had failed). A reference
      // cycle mupdf detects and skips leaves a readable page: a final state is all that is asked of it, and its
      // read, like any page's, may meet the page time limit on a loaded machine and be retried once.
      if (name.startsWith("object cycles")) {
        expect(FINAL, name).toContain(row.status)
        expect(row.job_attempts, `${name}: ${JSON.stringify(row)}`).toBeLessThanOrEqual(2)
      } else {
        expect(row.status, `${name}: ${JSON.stringify(row)}`).toBe("error")
        expect(String(row.error_message ?? ""), name).not.toBe("")
        expect(row.job_attempts, `${name}: ${JSON.stringify(row)}`).toBe(1)
      }
    }
    const slowest = Math.max(...first.map((r) => r.seconds))
    // A decodable 99 MP page under the pixel cap is read within the limits (its time is the page limit's business,
    // a transient failure retried once); what matters is that the process survives it.
    const [big] = await batch({ "decodable 9,950 × 9,950 PNG (99 MP, under the cap)": giant })
    expect(FINAL).toContain(big!.row.status)
    expect(big!.row.job_attempts).toBeLessThanOrEqual(2)
    const after = memoryOf(worker.pid)
    // The same worker process is still up and takes the next jobs.
    expect(alive(worker), worker.stderr().slice(-2_000)).toBe(true)
    const next = await Promise.all(
      [1, 2, 3].map((n) => submitRaw(stack, Files.invoicePdf(`F-NEXT-${n}`), `next-${n}.pdf`))
    )
    const nextIds = next.map(submitted)
    const nextRows = await awaitAllFinal(stack, nextIds, 60_000)
    for (const id of nextIds) expect(nextRows.get(id)?.status).toBe("completado")
    expect(alive(worker), worker.stderr().slice(-2_000)).toBe(true)
    expect(worker.stderr()).not.toMatch(/out of memory|ERR_WORKER_OUT_OF_MEMORY|FATAL ERROR/i)
    console.log(
      `D22: ${first.length} hostile files → ${first.filter((r) => r.row.status === "error").length} × error, slowest ${slowest.toFixed(1)} s; ` +
        `a 99 MP PNG (${(giant.length / 1024).toFixed(0)} KB) → ${big!.row.status} in ${big!.seconds.toFixed(1)} s; ` +
        `worker pid ${worker.pid} unchanged, RSS ${before.rssMb.toFixed(0)} → ${after.rssMb.toFixed(0)} MB, peak ${after.peakMb.toFixed(0)} MB; ` +
        `bomb ${(bomb.length / 2 ** 20).toFixed(2)} MB → 1024 MB; next 3 jobs completado\n${[...first, big!].map(line).join("\n")}`
    )
    expect(slowest).toBeLessThan(30)
  })

  it.skipIf(!existsSync(ODD_PDFS))(
    "D22 the odd-pdfs corpus (26 broken, encrypted, bomb, odd-font and scanned PDFs) → 26 final states, the worker up",
    async () => {
      const worker = stack.workers[0]!
      const names = readdirSync(ODD_PDFS)
        .filter((n) => n.endsWith(".pdf"))
        .sort()
      const ids: Array<string> = []
      const refused: Array<string> = []
      const began = performance.now()
      for (const name of names) {
        const reply = await submitRaw(stack, readFileSync(Path.join(ODD_PDFS, name)), name)
        if (reply.status === 202) ids.push((reply.body as Json).extraction_id as string)
        else {
          // A file whose bytes are not a PDF at all is refused at the door, with the spec's body.
          expect(reply.status, name).toBe(400)
          expect(isErrorBody(reply.body), name).toBe(true)
          refused.push(name)
        }
      }
      const found = await awaitAllFinal(stack, ids, 180_000)
      const byStatus = new Map<string, number>()
      for (const row of found.values())
        byStatus.set(row.status as string, (byStatus.get(row.status as string) ?? 0) + 1)
      expect(ids.length + refused.length).toBe(names.length)
      expect(alive(worker), worker.stderr().slice(-2_000)).toBe(true)
      console.log(
        `D22 odd-pdfs: ${names.length} files → ${ids.length} accepted, ${refused.length} refused with 400; ` +
          `final: ${[...byStatus].map(([s, n]) => `${n} ${s}`).join(", ")} in ${((performance.now() - began) / 1000).toFixed(1)} s; worker pid ${worker.pid} up`
      )
    }
  )

  it("D23 500 bit-flipped or truncated PDFs/PNGs/JPEGs → 500 final states (or 400 at the door), 0 stuck, 0 5xx, 0 crashed processes", async () => {
    const worker = stack.workers[0]!
    const random = Files.prng(23)
    const bases: ReadonlyArray<readonly [string, Uint8Array]> = [
      ["plain.pdf", Files.invoicePdf("F-FLIP")],
      ["compressed.pdf", Files.compressedPdf()],
      ["sample.pdf", SAMPLE_PDF],
      ["bars.png", Files.smallPng()],
      ["bars.jpg", Files.smallJpeg()]
    ]
    const files = Array.from({ length: 500 }, (_, i) => {
      const [name, bytes] = bases[i % bases.length]!
      const mutated = Files.mutate(bytes, random)
      return { name: `flip-${i}-${name}`, bytes: mutated.bytes, how: mutated.how }
    })
    const began = performance.now()
    const ids: Array<string> = []
    let refused = 0
    const serverErrors: Array<string> = []
    for (let i = 0; i < files.length; i += 25) {
      const batch = files.slice(i, i + 25)
      const replies = await Promise.all(batch.map((f) => submitRaw(stack, f.bytes, f.name)))
      replies.forEach((reply, j) => {
        if (reply.status === 202) ids.push((reply.body as Json).extraction_id as string)
        else if (reply.status === 400 && isErrorBody(reply.body)) refused += 1
        else serverErrors.push(`${batch[j]!.name} (${batch[j]!.how}): ${reply.status} ${JSON.stringify(reply.body)}`)
      })
    }
    expect(serverErrors).toEqual([])
    const found = await awaitAllFinal(stack, ids, 240_000)
    const seconds = (performance.now() - began) / 1000
    const count = (status: string) => [...found.values()].filter((r) => r.status === status).length
    const stuck = [...found.values()].filter((r) => !FINAL.includes(r.status as string))
    // Final means final in the queue too: every job row agrees with its extraction.
    for (const row of found.values()) {
      expect(row.job_state, JSON.stringify(row)).toBe(row.status === "error" ? "failed" : "done")
    }
    expect(stuck).toEqual([])
    expect(ids.length + refused).toBe(500)
    expect(alive(worker), worker.stderr().slice(-2_000)).toBe(true)
    expect(alive(stack.server)).toBe(true)
    console.log(
      `D23: 500 damaged files → ${ids.length} accepted (${count("completado")} completado, ${count("error")} error), ` +
        `${refused} refused with 400, 0 stuck, 0 × 5xx, 0 crashes (worker pid ${worker.pid}) in ${seconds.toFixed(1)} s`
    )
  })

  it("D24 hostile file names (quotes, CR LF, ';', non-Latin, RTL override, 255 chars, path traversal) → stored under server-made names; one RFC 6266 Content-Disposition that round-trips; nosniff", async () => {
    const names = [
      'factura "comillas".pdf',
      "a\r\nSet-Cookie: pwned=1\r\nX-Injected: yes.pdf",
      "a; filename=evil.exe; b.pdf",
      "北京 счёт-фактура ñ Ω.pdf",
      "\u202Efdp.exe",
      "🧾 recibo.pdf",
      "../../etc/passwd",
      "..\\..\\windows\\system32\\drivers\\etc\\hosts",
      "/absolute/path.pdf",
      "%2e%2e%2f%00.pdf",
      "tab\there.pdf",
      "back\\slash.pdf",
      `${"n".repeat(251)}.pdf`
    ]
    const document = Files.invoicePdf("F-NAMES")
    const ids = new Map<string, string>()
    for (const name of names) ids.set(name, submitted(await submitRaw(stack, document, name)))
    // Over the length cap: refused, not truncated silently.
    const tooLong = await submitRaw(stack, document, `${"n".repeat(256)}.pdf`)
    expect(tooLong.status).toBe(400)
    expect(isErrorBody(tooLong.body)).toBe(true)

    const stored = await rows(stack, [...ids.values()])
    const files = readdirSync(stack.documentsDir)
    for (const [name, id] of ids) {
      const row = stored.get(id)!
      expect(row.origin_name, name).toBe(name)
      // The stored location is made by the server from the id: nothing of the client's name is in it.
      expect(String(row.document_location)).toContain(id)
      expect(String(row.document_location)).not.toContain(name)
      expect(files).toContain(Path.basename(String(row.document_location).replace(/^[a-z]+:/, "")))

      const reply = await rawGet(`${stack.server.url}/v1/extractions/${id}/document`, { "x-api-key": stack.key })
      expect(reply.status, name).toBe(200)
      expect(Buffer.compare(reply.body, Buffer.from(document)), name).toBe(0)
      const dispositions = reply.headers.filter(([h]) => h === "content-disposition")
      expect(dispositions, name).toHaveLength(1)
      expect(
        reply.headers.filter(([h]) => h === "x-content-type-options"),
        name
      ).toEqual([["x-content-type-options", "nosniff"]])
      // Nothing of the name became a header of its own.
      expect(reply.headers.map(([h]) => h)).not.toContain("set-cookie")
      expect(reply.headers.map(([h]) => h)).not.toContain("x-injected")
      const value = dispositions[0]![1]
      expect(value, name).toMatch(/^attachment; filename=/)
      // RFC 6266: `filename` is a token or quoted-string of printable ASCII; `filename*` carries UTF-8.
      const fallback = /filename=("(?:[^"\\]|\\.)*"|[^;\s]+)/.exec(value)?.[1]
      expect(fallback, value).toBeDefined()
      expect(fallback!, value).toMatch(/^[\x20-\x7e]+$/)
      // RFC 6266 Appendix D: no quoted-pair escapes, percent signs or paths in the fallback (filename* has the name).
      expect(fallback!.replace(/^"|"$/g, ""), value).not.toMatch(/["\\%/]/)
      const extended = /filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)/.exec(value)?.[1]
      const sent =
        extended !== undefined ? decodeURIComponent(extended) : fallback!.replace(/^"|"$/g, "").replace(/\\(.)/g, "$1")
      expect(sent, value).toBe(name)
      if (!/^[\x20-\x7e]*$/.test(name)) expect(extended, `${name} needs filename*`).toBeDefined()
    }
    // Every stored file has a server-made name and sits in the documents directory; nothing landed outside it.
    for (const file of files) expect(file).toMatch(/^[0-9a-f-]{36}$/)
    expect(readdirSync(Path.dirname(stack.documentsDir)).filter((f) => !["documents"].includes(f))).toEqual([])
    expect(statSync("/etc/passwd").size).toBeGreaterThan(0)
    console.log(
      `D24: ${names.length} hostile names → stored as ${files.length} id-named files, one Content-Disposition each ` +
        `(round-trips: ${names.length}/${names.length}), nosniff; a 260-char name → 400`
    )
  })

  it("D25 search with %, _, quotes, backslash, 255-char names → matched literally and fast; 10,000-char and NUL searches → 200 with no items; bad limit/status/sort_by/sort_order/dates → 400 {error}", async () => {
    const document = Files.invoicePdf("F-SEARCH")
    const long = `${"L".repeat(240)}.pdf`
    const names = [
      "100%_real.pdf",
      "100x real.pdf",
      "1000 real.pdf",
      "under_score.pdf",
      "underXscore.pdf",
      'O\'Brien "quoted".pdf',
      "back\\slash.pdf",
      "backslash.pdf",
      "percent 50%.pdf",
      long
    ]
    for (const name of names) submitted(await submitRaw(stack, document, `srch ${name}`))
    const search = async (term: string) => {
      const started = performance.now()
      const reply = await stack.api.key(
        "GET",
        `/v1/extractions?limit=500&search=${encodeURIComponent(term)}`,
        stack.key
      )
      return { ...reply, ms: performance.now() - started }
    }
    const expectations: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
      ["%", ["100%_real.pdf", "percent 50%.pdf"]],
      ["_", ["100%_real.pdf", "under_score.pdf"]],
      ["100%", ["100%_real.pdf"]],
      ["r_s", ["under_score.pdf"]],
      ["under_", ["under_score.pdf"]],
      ["%_", ["100%_real.pdf"]],
      ["'", ['O\'Brien "quoted".pdf']],
      ['"quoted"', ['O\'Brien "quoted".pdf']],
      ["\\", ["back\\slash.pdf"]],
      ["k\\s", ["back\\slash.pdf"]],
      ["' OR '1'='1", []],
      ["%' OR 1=1 --", []],
      [long, [long]]
    ]
    let slowest = 0
    for (const [term, expected] of expectations) {
      const reply = await search(term)
      slowest = Math.max(slowest, reply.ms)
      expect(reply.status, term).toBe(200)
      const found = ((reply.body as Json).extractions as Array<Json>)
        .map((e) => e.origin_name as string)
        .filter((n) => n.startsWith("srch "))
        .map((n) => n.slice(5))
        .sort()
      expect(found, `search ${JSON.stringify(term)}`).toEqual([...expected].sort())
    }
    // Literal too: no stored name is longer than 255 characters or holds a NUL, so these find nothing (200, count 0).
    for (const [name, query] of [
      ["10,000-char search", `search=${"x".repeat(10_000)}`],
      ["10,000-char search of a stored name's prefix", `search=${encodeURIComponent(long.repeat(42))}`],
      ["NUL in search", "search=srch%00"]
    ] as const) {
      const started = performance.now()
      const reply = await stack.api.key("GET", `/v1/extractions?${query}`, stack.key)
      slowest = Math.max(slowest, performance.now() - started)
      expect(reply.status, name).toBe(200)
      expect(reply.body, name).toEqual({ extractions: [], count: 0 })
    }
    const refusals: Record<string, string> = {
      "limit=0": "limit=0",
      "limit=-1": "limit=-1",
      "limit=abc": "limit=abc",
      "limit=1e3": "limit=1e3",
      "limit=99999999999": "limit=99999999999",
      "status=unknown": "status=borrado",
      "status=en cola,''": "status=en%20cola,%27%27",
      "sort_by=id; DROP": "sort_by=id%3B%20DROP%20TABLE%20extractions",
      "sort_order=up": "sort_order=up",
      "start_date=2024-02-30": "start_date=2024-02-30",
      "end_date=yesterday": "end_date=yesterday",
      "start after end": "start_date=2024-05-01&end_date=2024-04-01",
      "limit twice": "limit=1&limit=2"
    }
    for (const [name, query] of Object.entries(refusals)) {
      const started = performance.now()
      const reply = await stack.api.key("GET", `/v1/extractions?${query}`, stack.key)
      slowest = Math.max(slowest, performance.now() - started)
      expect(reply.status, name).toBe(400)
      expect(isErrorBody(reply.body), name).toBe(true)
    }
    // The table is intact after the injection attempts.
    const all = await stack.api.key("GET", "/v1/extractions?limit=500&search=srch", stack.key)
    expect(((all.body as Json).extractions as Array<unknown>).length).toBe(names.length)
    console.log(
      `D25: ${expectations.length} literal searches all exact, 3 unmatchable (10,000 chars, NUL) → 200 empty, ${Object.keys(refusals).length} bad queries → 400 {error}; slowest request ${slowest.toFixed(0)} ms`
    )
    expect(slowest).toBeLessThan(2_000)
  })
})
