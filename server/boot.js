// Plain JavaScript on purpose: it must run, and explain itself, on any Node before the TypeScript
// entry is loaded. Node 24.15 is the first with node:sqlite and crypto.argon2 without warnings.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 24 || (major === 24 && minor < 15)) {
  console.error(
    `Workneer needs Node 24.15 or newer; this is Node ${process.versions.node}. Run it through npm (npm start), which uses the Node 24 that npm install put in node_modules/.bin.`,
  )
  process.exit(1)
}
// A heap limit given to the server (--max-old-space-size) is a ceiling, not a reason to collect
// more often below it (decision 287).
const { applyHeapGrowth } = await import('./heap-growth.js')
applyHeapGrowth()
// Node's compile cache keeps each module's TypeScript-stripped source and V8 code on disk (in the
// system's temporary folder, or NODE_COMPILE_CACHE), so every start after the first neither loads
// the type stripper (~18 MB resident) nor compiles the server again (decision 136). A folder that
// cannot be written only leaves it off.
const { enableCompileCache } = await import('node:module')
enableCompileCache?.()
const { main } = await import('./index.ts')
await main()
