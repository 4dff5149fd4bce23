/**
 * 8-connected components of the set pixels of a mask ([height, width] row-major, 1 = set), labelled breadth-first
 * from each component's first pixel in row-major order. Each component's pixels (row-major indices) are the slice
 * [begin, end) of `pixels`, in the order they were reached.
 */
export interface Components {
  readonly pixels: Int32Array
  readonly ranges: ReadonlyArray<{ readonly begin: number; readonly end: number }>
}

export const connectedComponents = (mask: Uint8Array, width: number, height: number): Components => {
  const size = width * height
  const seen = new Uint8Array(size)
  const pixels = new Int32Array(size)
  const ranges: Array<{ begin: number; end: number }> = []
  let tail = 0
  for (let start = 0; start < size; start++) {
    if (seen[start] === 1 || mask[start] !== 1) continue
    seen[start] = 1
    const begin = tail
    pixels[tail++] = start
    let head = begin
    while (head < tail) {
      const p = pixels[head++]!
      const x = p % width
      const y = (p - x) / width
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy
        if (ny < 0 || ny >= height) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          if (nx < 0 || nx >= width) continue
          const q = ny * width + nx
          if (seen[q] === 0 && mask[q] === 1) {
            seen[q] = 1
            pixels[tail++] = q
          }
        }
      }
    }
    ranges.push({ begin, end: tail })
  }
  return { pixels, ranges }
}
