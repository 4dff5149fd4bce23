/**
 * A binary heap in an array whose root is the element every other is `better` than: kept at a bounded size, its
 * root is the worst of the best seen so far (a top-k without sorting everything above a floor).
 */

/** Pushes `item` onto `heap`. */
export const heapPush = <A>(heap: Array<A>, item: A, better: (x: A, y: A) => boolean): void => {
  heap.push(item)
  let i = heap.length - 1
  while (i > 0) {
    const parent = (i - 1) >> 1
    const up = heap[parent]
    if (up === undefined || !better(up, item)) break
    heap[i] = up
    i = parent
  }
  heap[i] = item
}

/** Replaces the root of a non-empty heap with `item` and restores the order. */
export const heapReplaceRoot = <A>(heap: Array<A>, item: A, better: (x: A, y: A) => boolean): void => {
  let i = 0
  const n = heap.length
  while (true) {
    const left = 2 * i + 1
    if (left >= n) break
    const right = left + 1
    const l = heap[left]
    const r = heap[right]
    if (l === undefined) break
    const worse = r !== undefined && right < n && better(l, r) ? right : left
    const child = heap[worse]
    if (child === undefined || !better(item, child)) break
    heap[i] = child
    i = worse
  }
  heap[i] = item
}
