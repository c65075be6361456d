import v8 from 'node:v8'
import vm from 'node:vm'

// A start reads the catalogue, loads the web app's bundle and answers its migrations' and seed's
// questions; V8 keeps the pages its heap grew to for all that (~110 MB for ~45 MB live), and a
// regular collection frees the objects but not the pages. One collection that compacts and returns
// them, before the first request, leaves a server that holds what it uses (decision 289): ~40 MB
// less resident, after a first start as after a restart.
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void

export function releaseStartGarbage() {
  // V8's gc() is reachable only with --expose-gc, which a new context sees once the flag is set;
  // it is set back, so nothing else in the process gains a gc().
  const exposed = typeof globalThis.gc === 'function'
  if (!exposed) v8.setFlagsFromString('--expose-gc')
  const gc = vm.runInNewContext('gc') as Gc
  if (!exposed) v8.setFlagsFromString('--no-expose-gc')
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}
