import { readFileSync } from "node:fs"

/**
 * CPU flags that give onnxruntime's int8 convolutions (MLAS, uint8 × int8) an 8-bit dot-product instruction: x86
 * VNNI in its AVX-512 or AVX form, AMX, and Arm's dot product. Without one (x86 with AVX2 alone), an int8
 * convolution multiplies pairs into 16 bits (`vpmaddubsw`) and the recognizer gains too little to pay for the
 * quantize and dequantize steps around each convolution.
 */
const INT8_DOT_FLAGS = ["avx512_vnni", "avx_vnni", "amx_int8", "asimddp"]

/** Whether a `/proc/cpuinfo` text lists an 8-bit dot-product instruction (x86 `flags`, Arm `Features`). */
export const hasInt8DotProduct = (cpuinfo: string): boolean =>
  cpuinfo.split("\n").some((line) => {
    const colon = line.indexOf(":")
    const key = line.slice(0, Math.max(0, colon)).trim()
    if (colon < 0 || (key !== "flags" && key !== "Features")) return false
    const flags = new Set(
      line
        .slice(colon + 1)
        .trim()
        .split(/\s+/)
    )
    return INT8_DOT_FLAGS.some((flag) => flags.has(flag))
  })

let cached: boolean | undefined

/**
 * Whether this machine's CPU has an 8-bit dot-product instruction, read once from `/proc/cpuinfo`; false where the
 * file cannot be read (other systems than Linux), so those run the float recognizer.
 */
export const cpuHasInt8DotProduct = (): boolean => {
  if (cached === undefined) {
    try {
      cached = hasInt8DotProduct(readFileSync("/proc/cpuinfo", "utf8"))
    } catch {
      cached = false
    }
  }
  return cached
}

/**
 * The precision a recognizer runs at: `auto` (the default) is int8 when it has int8 ranges and the CPU an 8-bit dot
 * product (above), else float32.
 */
export const resolvePrecision = (
  precision: "float32" | "int8" | "auto" | undefined,
  hasRanges: boolean
): "float32" | "int8" => {
  const chosen = precision ?? "auto"
  if (chosen !== "auto") return chosen
  return hasRanges && cpuHasInt8DotProduct() ? "int8" : "float32"
}
