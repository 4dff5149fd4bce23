/** Reading the CPU's 8-bit dot-product support from `/proc/cpuinfo` text (src/internal/ocr/cpu.ts). */
import { describe, expect, it } from "@effect/vitest"
import { hasInt8DotProduct } from "../../src/internal/ocr/cpu.js"

const x86 = (flags: string) =>
  `processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: ${flags}\nbugs\t\t: sysret_ss_attrs\n`

describe("hasInt8DotProduct", () => {
  it("finds VNNI (AVX-512 or AVX) and AMX among x86 flags", () => {
    expect(hasInt8DotProduct(x86("fpu sse2 avx avx2 fma avx512f avx512_vnni"))).toBe(true)
    expect(hasInt8DotProduct(x86("fpu sse2 avx avx2 avx_vnni"))).toBe(true)
    expect(hasInt8DotProduct(x86("fpu sse2 avx2 amx_tile amx_int8"))).toBe(true)
  })

  it("is false for x86 with AVX2 alone, even when a flag only starts like one", () => {
    expect(hasInt8DotProduct(x86("fpu sse2 avx avx2 fma avx512f avx512bw"))).toBe(false)
    expect(hasInt8DotProduct(x86("fpu avx2 avx_vnni_int8x"))).toBe(false)
    // The flag named in another field does not count.
    expect(hasInt8DotProduct("model name\t: avx512_vnni emulator\nflags\t\t: fpu avx2\n")).toBe(false)
  })

  it("finds Arm's dot product among the Features", () => {
    expect(hasInt8DotProduct("processor\t: 0\nFeatures\t: fp asimd evtstrm aes crc32 atomics asimddp\n")).toBe(true)
    expect(hasInt8DotProduct("processor\t: 0\nFeatures\t: fp asimd evtstrm aes crc32\n")).toBe(false)
  })

  it("is false for an empty or unreadable text", () => {
    expect(hasInt8DotProduct("")).toBe(false)
    expect(hasInt8DotProduct("garbage without colons")).toBe(false)
  })
})
