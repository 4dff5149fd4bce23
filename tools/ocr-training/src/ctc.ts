/**
 * CTC loss and its gradient with respect to the logits (before the softmax), by the forward–backward algorithm in
 * log space (Graves et al. 2006), for one sequence. Class 0 is the blank. Pure: plain arrays in, plain arrays out.
 */

const logAdd = (a: number, b: number): number => {
  if (a === Number.NEGATIVE_INFINITY) return b
  if (b === Number.NEGATIVE_INFINITY) return a
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b))
}

/** Row-wise log-softmax of [T, C] logits. */
export const logSoftmax = (logits: Float32Array, t: number, c: number): Float64Array => {
  const out = new Float64Array(t * c)
  for (let i = 0; i < t; i++) {
    let max = Number.NEGATIVE_INFINITY
    for (let k = 0; k < c; k++) max = Math.max(max, logits[i * c + k]!)
    let sum = 0
    for (let k = 0; k < c; k++) sum += Math.exp(logits[i * c + k]! - max)
    const log = max + Math.log(sum)
    for (let k = 0; k < c; k++) out[i * c + k] = logits[i * c + k]! - log
  }
  return out
}

/** The loss −log p(labels | logits) and its gradient d loss / d logits ([T, C], written into `grad`). */
export const ctcLoss = (
  logits: Float32Array,
  t: number,
  c: number,
  labels: ArrayLike<number>,
  grad: Float32Array
): number => {
  const lp = logSoftmax(logits, t, c)
  const l = labels.length
  const s = 2 * l + 1
  // The extended sequence: blank, l1, blank, l2, …, blank.
  const ext = new Int32Array(s)
  for (let i = 0; i < l; i++) ext[2 * i + 1] = labels[i]!
  const ninf = Number.NEGATIVE_INFINITY
  const alpha = new Float64Array(t * s).fill(ninf)
  const beta = new Float64Array(t * s).fill(ninf)
  alpha[0] = lp[ext[0]!]!
  if (s > 1) alpha[1] = lp[ext[1]!]!
  for (let i = 1; i < t; i++) {
    for (let j = 0; j < s; j++) {
      let a = alpha[(i - 1) * s + j]!
      if (j >= 1) a = logAdd(a, alpha[(i - 1) * s + j - 1]!)
      if (j >= 2 && ext[j] !== 0 && ext[j] !== ext[j - 2]) a = logAdd(a, alpha[(i - 1) * s + j - 2]!)
      alpha[i * s + j] = a === ninf ? ninf : a + lp[i * c + ext[j]!]!
    }
  }
  const last = (t - 1) * s
  beta[last + s - 1] = lp[(t - 1) * c + ext[s - 1]!]!
  if (s > 1) beta[last + s - 2] = lp[(t - 1) * c + ext[s - 2]!]!
  for (let i = t - 2; i >= 0; i--) {
    for (let j = 0; j < s; j++) {
      let b = beta[(i + 1) * s + j]!
      if (j + 1 < s) b = logAdd(b, beta[(i + 1) * s + j + 1]!)
      if (j + 2 < s && ext[j] !== 0 && ext[j] !== ext[j + 2]) b = logAdd(b, beta[(i + 1) * s + j + 2]!)
      beta[i * s + j] = b === ninf ? ninf : b + lp[i * c + ext[j]!]!
    }
  }
  const logP = s > 1 ? logAdd(alpha[last + s - 1]!, alpha[last + s - 2]!) : alpha[last]!
  if (!Number.isFinite(logP)) {
    grad.fill(0)
    return Number.POSITIVE_INFINITY
  }
  // d(−log p)/dz_tk = y_tk − (1/p) Σ_{s: ext_s = k} α_t(s) β_t(s) / y_tk (α and β both include y at t).
  const gamma = new Float64Array(c)
  for (let i = 0; i < t; i++) {
    gamma.fill(ninf)
    for (let j = 0; j < s; j++) {
      const k = ext[j]!
      gamma[k] = logAdd(gamma[k]!, alpha[i * s + j]! + beta[i * s + j]!)
    }
    for (let k = 0; k < c; k++) {
      const y = lp[i * c + k]!
      const occupancy = gamma[k] === ninf ? 0 : Math.exp(gamma[k]! - y - logP)
      grad[i * c + k] = Math.exp(y) - occupancy
    }
  }
  return -logP
}
