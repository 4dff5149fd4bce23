/**
 * The caps on what a document may make a worker do, in one object. Every check that uses them runs before the
 * expensive step it guards: page counts before pages load, declared image sizes before decoding, render sizes
 * before a pixmap is allocated.
 */

/** Caps on a document and its renders. */
export interface Limits {
  /** More pages than this is `TooManyPages`, refused before any page is loaded. */
  readonly maxPages: number
  /**
   * An image file (or a TIFF page) declaring more pixels is `TooManyPixels`; an image inside a PDF page that does is
   * left out of the page's renders, never decoded, and the page recorded as degraded.
   */
  readonly maxImagePixels: number
  /** A page render holds at most this many pixels: the resolution is lowered to fit. */
  readonly maxRenderPixels: number
  /** …and at most this many pixels on its longest side. */
  readonly maxRenderSide: number
  /** A render that would need less than this resolution (DPI) to fit is `TooManyPixels` (the page is absurd). */
  readonly minRenderDpi: number
}

/**
 * Defaults: 500 pages; 100 megapixels per image (a 600 DPI A3 scan is 70 MP); renders up to 25 MP and 10,000 px a
 * side (A4 at 200 DPI is 3.9 MP; 25 MP of RGB is 75 MB in the WASM heap and as much again once copied out);
 * pages so large that they would fall below 18 DPI (a quarter of 72) are refused.
 */
export const defaultLimits: Limits = {
  maxPages: 500,
  maxImagePixels: 100_000_000,
  maxRenderPixels: 25_000_000,
  maxRenderSide: 10_000,
  minRenderDpi: 18
}
