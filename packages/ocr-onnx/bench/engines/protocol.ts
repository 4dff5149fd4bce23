/**
 * What the benchmark hands an engine process and what it gets back. Each engine runs in its own Node process (run
 * directly, with type stripping) so that its peak RSS and CPU time are its own.
 */

/** The pages to read and how many worker threads to read them with. */
export interface EngineInput {
  readonly images: ReadonlyArray<string>
  readonly workers: number
  /** Our engine's built-in recognizer (the reader's default when absent); tesseract.js ignores it. */
  readonly recognizer?: "latin" | "chinese" | undefined
  /** Our recognizer's precision (the reader's default when absent); tesseract.js ignores it. */
  readonly precision?: "float32" | "int8" | "auto" | undefined
}

/** A word as an engine read it: box in the page's own unit (`unit`), top-left origin. */
export interface EngineWord {
  readonly text: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** One page as read. `width`/`height` are the page size in the unit of the word boxes. */
export interface EnginePage {
  readonly image: string
  readonly width: number
  readonly height: number
  readonly unit: "pixel" | "point"
  readonly words: ReadonlyArray<EngineWord>
  /** Wall time of this page, ms (pages overlap when `workers` > 1). */
  readonly ms: number
  /** Set when the engine failed on the page. */
  readonly error?: string
}

/** An engine's run: pages in input order, and the process's figures. */
export interface EngineOutput {
  readonly engine: string
  readonly workers: number
  /** Loading (workers, models, language data) before the first page, ms. */
  readonly startupMs: number
  /** From the first page submitted to the last page read, ms. */
  readonly wallMs: number
  /** User + system CPU time of the process (all threads) over the pages, ms. */
  readonly cpuMs: number
  /** Peak resident set size of the process, MB. */
  readonly maxRssMb: number
  readonly pages: ReadonlyArray<EnginePage>
}
