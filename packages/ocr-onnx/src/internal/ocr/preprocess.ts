import type { OcrConfig } from "./config.js"
import type { PageImage } from "./image.js"

/** The detection model's input: a normalised [1, 3, height, width] tensor and how it maps back to the page. */
export interface DetInput {
  readonly tensor: Float32Array
  readonly width: number
  readonly height: number
  /** Page pixels per detection pixel, horizontally and vertically (they differ slightly: sizes round to 32). */
  readonly scaleX: number
  readonly scaleY: number
}

// ImageNet statistics, as PaddleOCR's NormalizeImage applies them: to channels in the BGR order the models were
// trained on (cv2 decodes to BGR), so mean[0] goes with blue.
const MEAN = [0.485, 0.456, 0.406] as const
const STD = [0.229, 0.224, 0.225] as const

const roundTo32 = (n: number): number => Math.max(32, Math.round(n / 32) * 32)

/** The detection input size for a page: `detScale` of the page, longest side capped, multiples of 32. */
export const detSize = (width: number, height: number, config: OcrConfig): { width: number; height: number } => {
  const scale = Math.min(config.detScale, config.detMaxSide / Math.max(width, height))
  return { width: roundTo32(width * scale), height: roundTo32(height * scale) }
}

/** For each output position along one axis: the two source indices and the weight of the second (bilinear). */
const taps = (outSize: number, inSize: number): { i0: Int32Array; i1: Int32Array; a: Float32Array } => {
  const scale = inSize / outSize
  const i0 = new Int32Array(outSize)
  const i1 = new Int32Array(outSize)
  const a = new Float32Array(outSize)
  for (let o = 0; o < outSize; o++) {
    const f = Math.min(Math.max((o + 0.5) * scale - 0.5, 0), inSize - 1)
    i0[o] = Math.floor(f)
    i1[o] = Math.min(i0[o]! + 1, inSize - 1)
    a[o] = f - i0[o]!
  }
  return { i0, i1, a }
}

/**
 * Bilinear resize of a page image to the detection size and ImageNet normalisation into an NCHW BGR tensor. The
 * taps are computed once per row and column (this runs on a million output pixels per page).
 */
export const preprocess = (image: PageImage, config: OcrConfig): DetInput => {
  const { width, height } = detSize(image.width, image.height, config)
  const { data, channels } = image
  const plane = width * height
  const tensor = new Float32Array(3 * plane)
  const xs = taps(width, image.width)
  const ys = taps(height, image.height)
  // Channel c of the output (B, G, R) reads source channel 2 − c, or the only one of a gray image.
  const source = channels === 1 ? [0, 0, 0] : [2, 1, 0]
  for (let c = 0; c < 3; c++) {
    const k = 1 / (255 * STD[c]!)
    const m = MEAN[c]! / STD[c]!
    const sc = source[c]!
    const out = c * plane
    for (let y = 0; y < height; y++) {
      const r0 = ys.i0[y]! * image.width
      const r1 = ys.i1[y]! * image.width
      const ay = ys.a[y]!
      for (let x = 0; x < width; x++) {
        const ax = xs.a[x]!
        const c0 = xs.i0[x]!
        const c1 = xs.i1[x]!
        const top = data[(r0 + c0) * channels + sc]! * (1 - ax) + data[(r0 + c1) * channels + sc]! * ax
        const bottom = data[(r1 + c0) * channels + sc]! * (1 - ax) + data[(r1 + c1) * channels + sc]! * ax
        tensor[out + y * width + x] = (top * (1 - ay) + bottom * ay) * k - m
      }
    }
  }
  return { tensor, width, height, scaleX: image.width / width, scaleY: image.height / height }
}
