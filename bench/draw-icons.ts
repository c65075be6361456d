import fs from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'

// node bench/draw-icons.ts — draws the web app manifest's PNG icons from public/logo.svg with the
// Chromium the tests use (decision 337). Run once when the logo changes; the PNGs are committed, so
// neither the build nor the server draws anything. The maskable icon fills the square with the
// logo's blue and keeps the mark inside the middle 60 %, the safe zone launchers never crop.
const root = path.resolve(import.meta.dirname, '..')
const logo = fs.readFileSync(path.join(root, 'public/logo.svg'), 'utf8')
const mark = logo.replace(/<rect[^>]*\/>/, '')
const page = (size: number, maskable: boolean) =>
  `<!doctype html><style>html,body{margin:0;background:transparent}</style>` +
  (maskable
    ? `<div style="width:${size}px;height:${size}px;background:#0f4c81;display:grid;place-items:center">` +
      mark.replace('<svg ', `<svg width="${size * 0.6}" height="${size * 0.6}" `) +
      '</div>'
    : logo.replace('<svg ', `<svg width="${size}" height="${size}" `))

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  for (const [name, size, maskable] of [
    ['icon-192.png', 192, false],
    ['icon-512.png', 512, false],
    ['icon-maskable-512.png', 512, true],
  ] as const) {
    const tab = await browser.newPage({ viewport: { width: size, height: size } })
    await tab.setContent(page(size, maskable))
    await tab.screenshot({ path: path.join(root, 'public/icons', name), omitBackground: true })
    await tab.close()
  }
} finally {
  await browser.close()
}
