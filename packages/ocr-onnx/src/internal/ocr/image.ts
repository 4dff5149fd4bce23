/**
 * A page image as 8-bit samples, row-major, `channels` samples per pixel: 1 (gray), 3 (RGB) or 4 (RGBA; alpha is
 * ignored: mupdf renders pages opaque). Rows are packed (stride = width · channels).
 */
export interface PageImage {
  readonly width: number
  readonly height: number
  readonly channels: 1 | 3 | 4
  readonly data: Uint8Array
}

/** Checks that the buffer holds the pixels the header promises (a short buffer would read as black). */
export const validateImage = (image: PageImage): string | undefined => {
  const { width, height, channels, data } = image
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    return `image size ${width}×${height} is not a positive integer size`
  }
  if (channels !== 1 && channels !== 3 && channels !== 4) return `images have 1, 3 or 4 channels, not ${channels}`
  if (data.length < width * height * channels) {
    return `image buffer holds ${data.length} bytes, ${width}×${height}×${channels} expected`
  }
  return undefined
}

/**
 * Bilinear sample of the three colour channels at a continuous position (pixel centres at integer + 0.5), with
 * edge clamping. Writes R, G, B into `out` (reused by the caller to avoid allocating per pixel).
 */
export const sampleRgb = (image: PageImage, x: number, y: number, out: Float32Array): void => {
  const { width, height, channels, data } = image
  const fx = Math.min(Math.max(x - 0.5, 0), width - 1)
  const fy = Math.min(Math.max(y - 0.5, 0), height - 1)
  const x0 = Math.floor(fx)
  const y0 = Math.floor(fy)
  const x1 = x0 + 1 < width ? x0 + 1 : x0
  const y1 = y0 + 1 < height ? y0 + 1 : y0
  const ax = fx - x0
  const ay = fy - y0
  const w00 = (1 - ax) * (1 - ay)
  const w10 = ax * (1 - ay)
  const w01 = (1 - ax) * ay
  const w11 = ax * ay
  const i00 = (y0 * width + x0) * channels
  const i10 = (y0 * width + x1) * channels
  const i01 = (y1 * width + x0) * channels
  const i11 = (y1 * width + x1) * channels
  if (channels === 1) {
    const v = data[i00]! * w00 + data[i10]! * w10 + data[i01]! * w01 + data[i11]! * w11
    out[0] = v
    out[1] = v
    out[2] = v
    return
  }
  for (let c = 0; c < 3; c++) {
    out[c] = data[i00 + c]! * w00 + data[i10 + c]! * w10 + data[i01 + c]! * w01 + data[i11 + c]! * w11
  }
}
