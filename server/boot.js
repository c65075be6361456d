// Plain JavaScript on purpose: it must run, and explain itself, on any Node before the TypeScript
// entry is loaded. Node 24.15 is the first with node:sqlite and crypto.argon2 without warnings.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 24 || (major === 24 && minor < 15)) {
  console.error(
    `Workneer needs Node 24.15 or newer; this is Node ${process.versions.node}. Run it through npm (npm start), which uses the Node 24 that npm install put in node_modules/.bin.`,
  )
  process.exit(1)
}
// Node's compile cache keeps the stripped TypeScript and compiled code on disk, so later starts are faster.
;(await import('node:module')).enableCompileCache?.()
const { main } = await import('./index.ts')
await main()
