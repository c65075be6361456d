import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './rules.ts'

// A picture's header says how many pixels it holds, and a browser that shows it sets aside memory
// for all of them (a header claiming 60,000 × 60,000 asks for 14 GB), whatever the file weighs.
// So a picture that is shown (a profile photo, a portfolio or project image) must be within the
// limits, and one whose size cannot be read is not a picture. Formats browsers do not show (TIFF,
// BPG) are offered as downloads and not checked. image-size loads with the first upload.
const shown = new Set(['png', 'jpg', 'gif'])

export async function withinImageLimits(type: string, bytes: Uint8Array) {
  if (!shown.has(type)) return true
  const { imageSize } = await import('image-size')
  try {
    const { width = 0, height = 0 } = imageSize(bytes)
    return (
      width > 0 &&
      height > 0 &&
      width <= MAX_IMAGE_SIDE &&
      height <= MAX_IMAGE_SIDE &&
      width * height <= MAX_IMAGE_PIXELS
    )
  } catch {
    return false
  }
}
