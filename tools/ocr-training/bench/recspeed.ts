/**
 * Recognition alone, Latin head against PP-OCRv4's Chinese one, on the same line crops, the two sessions
 * alternating so that other load on the machine falls on both alike: CPU milliseconds per line.
 * `npx node tools/ocr-training/bench/recspeed.ts [lines] [rounds]` (after `npx tsc -b tsconfig.build.json`).
 */
import * as Fs from "node:fs"
import { seeded } from "@legible/ocr-onnx/bench/random.ts"
import {
  chineseModels,
  cropLine,
  decodeHead,
  defaultOcrConfig,
  graftHead,
  latinModels
} from "@legible/ocr-onnx/training"
import * as ort from "onnxruntime-node"
import { loadFonts } from "../src/fonts.ts"
import { randomStyle, renderLine } from "../src/render.ts"
import { lineDetector } from "../src/samples.ts"
import { line } from "../src/text.ts"

const [lines = "40", rounds = "3"] = process.argv.slice(2)
const options: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: "all",
  executionMode: "sequential",
  enableCpuMemArena: false
}
const latin = latinModels()
const model = new Uint8Array(Fs.readFileSync(latin.recognition))
const sessions = {
  chinese: await ort.InferenceSession.create(chineseModels().recognition, options),
  latin: await ort.InferenceSession.create(
    graftHead(model, decodeHead(new Uint8Array(Fs.readFileSync(latin.recognitionHead!)))),
    options
  )
}
const dictionary = Fs.readFileSync(latin.dictionary, "utf8").replace(/\n$/, "").split("\n")
const random = seeded(99)
const fonts = loadFonts()
const detect = await lineDetector()
const crops: Array<ort.Tensor> = []
while (crops.length < Number(lines)) {
  const image = renderLine(line(random, dictionary), randomStyle(random, fonts), random)
  const box = await detect(image)
  if (box === undefined) continue
  const crop = cropLine(image, box, defaultOcrConfig)
  if (crop.width <= defaultOcrConfig.recMaxWidth) {
    crops.push(new ort.Tensor("float32", crop.tensor, [1, 3, crop.height, crop.width]))
  }
}
const cpu = { chinese: 0, latin: 0 }
for (let r = 0; r < Number(rounds); r++) {
  for (const name of r % 2 === 0 ? (["chinese", "latin"] as const) : (["latin", "chinese"] as const)) {
    const session = sessions[name]
    const before = process.cpuUsage()
    for (const x of crops) await session.run({ [session.inputNames[0]!]: x })
    const used = process.cpuUsage(before)
    cpu[name] += (used.user + used.system) / 1000
  }
}
const per = (ms: number) => ms / (crops.length * Number(rounds))
process.stdout.write(
  `recognition CPU ms per line (${crops.length} lines × ${rounds} rounds): chinese ${per(cpu.chinese).toFixed(1)}, ` +
    `latin ${per(cpu.latin).toFixed(1)} (latin/chinese ${(cpu.latin / cpu.chinese).toFixed(2)}×)\n`
)
