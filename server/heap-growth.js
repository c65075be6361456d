import { setFlagsFromString } from 'node:v8'

// Plain JavaScript, as server/boot.js that applies it before anything else loads (decision 287).
// After each full collection V8 lets the heap grow to a multiple of what survived before it
// collects the whole heap again. With a limit of 2 GB or more the multiple goes up to 4; below it
// V8 takes 1.3–2 (1.4 at --max-old-space-size=512), so a server given a small heap, as an operator
// of a small machine does, collected it whole three to four times as often under the same load,
// while it used a fraction of its limit. A fixed multiple of 3 makes a limit only a ceiling: the
// heap never grows past it, and below it the server collects as it would without one.
const HEAP_GROWING_PERCENT = 200

export function applyHeapGrowth() {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
