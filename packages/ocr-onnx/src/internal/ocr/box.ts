/**
 * A rotated rectangle in page pixels. `angle` (radians, y down, so positive turns clockwise on screen) is the
 * reading direction: the u axis runs along the text, the v axis from its top to its bottom. A line read upside
 * down has an angle near π.
 */
export interface OrientedBox {
  readonly cx: number
  readonly cy: number
  /** Extent along the reading direction. */
  readonly width: number
  /** Extent across it. */
  readonly height: number
  readonly angle: number
  /** The detector's mean probability over the component. */
  readonly score: number
}

/** An axis-aligned rectangle. */
export interface Rect {
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** The page point at box coordinates (u, v), measured from the box centre along and across the text. */
export const boxPoint = (box: OrientedBox, u: number, v: number): { x: number; y: number } => {
  const c = Math.cos(box.angle)
  const s = Math.sin(box.angle)
  return { x: box.cx + u * c - v * s, y: box.cy + u * s + v * c }
}

/** The axis-aligned hull of the box region u ∈ [u0, u1], v ∈ [v0, v1]. */
export const boxRegionRect = (box: OrientedBox, u0: number, u1: number, v0: number, v1: number): Rect => {
  const ps = [boxPoint(box, u0, v0), boxPoint(box, u1, v0), boxPoint(box, u1, v1), boxPoint(box, u0, v1)]
  return {
    x0: Math.min(...ps.map((p) => p.x)),
    y0: Math.min(...ps.map((p) => p.y)),
    x1: Math.max(...ps.map((p) => p.x)),
    y1: Math.max(...ps.map((p) => p.y))
  }
}

/** The axis-aligned hull of a whole box. */
export const boxRect = (box: OrientedBox): Rect =>
  boxRegionRect(box, -box.width / 2, box.width / 2, -box.height / 2, box.height / 2)

/** An angle brought into (−π, π]. */
export const normalizeAngle = (a: number): number => {
  let r = a % (2 * Math.PI)
  if (r <= -Math.PI) r += 2 * Math.PI
  if (r > Math.PI) r -= 2 * Math.PI
  return r
}

/** The same box read the other way round (what the 180° classifier asks for). */
export const flipBox = (box: OrientedBox): OrientedBox => ({ ...box, angle: normalizeAngle(box.angle + Math.PI) })

/**
 * The box in another pixel grid scaled by (sx, sy). Uneven scales shear the rectangle slightly; the result is the
 * rectangle spanned by the scaled u edge and the height that keeps the scaled area.
 */
export const scaleBox = (box: OrientedBox, sx: number, sy: number): OrientedBox => {
  const c = Math.cos(box.angle)
  const s = Math.sin(box.angle)
  const ux = box.width * c * sx
  const uy = box.width * s * sy
  const width = Math.hypot(ux, uy)
  const area = box.width * box.height * sx * sy
  return {
    cx: box.cx * sx,
    cy: box.cy * sy,
    width,
    height: width > 0 ? area / width : box.height * Math.sqrt(sx * sy),
    angle: Math.atan2(uy, ux),
    score: box.score
  }
}
