// The upload rules of docs/product.md §5, shared by the server (which enforces them) and the browser (which
// checks early as a convenience). Pure: no Node APIs.
export const DEFAULT_MAX_FILE_KB = 800
/** The largest picture that is shown: on a side, and in all (a 40-megapixel photo is a big camera's). */
export const MAX_IMAGE_SIDE = 10_000
export const MAX_IMAGE_PIXELS = 40_000_000
export const imageExtensions = ['png', 'jpg', 'jpeg', 'gif', 'tiff', 'bpg'] as const
export const spreadsheetExtensions = ['xlsx', 'csv'] as const
/** Drawings, specifications and reports that engineering projects exchange. */
export const documentExtensions = [
  'pdf',
  'docx',
  'xlsx',
  'csv',
  'txt',
  'dwg',
  'dxf',
  'ifc',
  'zip',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'tiff',
  'bpg',
] as const
/** Video and audio (chat attachments): containers browsers play. */
export const mediaExtensions = ['mp4', 'webm', 'mov', 'mp3', 'ogg', 'oga', 'wav', 'm4a'] as const
/** Browsers cannot show these, so they are offered for download instead of shown inline. */
export const notDisplayable = ['tiff', 'bpg'] as const

export type UploadKind = 'image' | 'spreadsheet' | 'document' | 'media'

/** docs/product.md §3: 1 image, 2 video, 3 audio, 4 document; anything unknown counts as an image. */
export const attachmentTypes = { image: 1, video: 2, audio: 3, document: 4 } as const
export type AttachmentType = (typeof attachmentTypes)[keyof typeof attachmentTypes]

export function attachmentTypeOf(value: unknown): AttachmentType {
  return value === 2 || value === 3 || value === 4 ? value : 1
}

export function attachmentTypeForMime(mime: string): AttachmentType {
  if (mime.startsWith('video/')) return 2
  if (mime.startsWith('audio/')) return 3
  if (mime.startsWith('image/')) return 1
  return 4
}

export function extensionOf(fileName: string) {
  const dot = fileName.lastIndexOf('.')
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase()
}

export interface UploadProblem {
  /** Stable code; the UI translates it. */
  code:
    'fileSize' | 'invalidImage' | 'invalidExcel' | 'invalidDocument' | 'invalidMedia' | 'invalidAttachment'
  /** Its title in the API's error catalogue (server/api/errors.ts), which gives the error's code. */
  title:
    | 'File Size'
    | 'Invalid Image'
    | 'Invalid Excel'
    | 'Invalid Document'
    | 'Invalid Media'
    | 'Invalid Attachment'
  message: string
}

export const problems = {
  fileSize: (limitKb: number): UploadProblem => ({
    code: 'fileSize',
    title: 'File Size',
    message: `Image size should not exceed ${limitKb} KB`,
  }),
  invalidImage: (): UploadProblem => ({
    code: 'invalidImage',
    title: 'Invalid Image',
    message: 'Please select a valid image',
  }),
  imageDimensions: (): UploadProblem => ({
    code: 'invalidImage',
    title: 'Invalid Image',
    message: `The image is too large: at most ${MAX_IMAGE_SIDE.toLocaleString('en')} pixels on a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
  }),
  invalidExcel: (): UploadProblem => ({
    code: 'invalidExcel',
    title: 'Invalid Excel',
    message: 'Please select a valid Excel sheet',
  }),
  invalidDocument: (): UploadProblem => ({
    code: 'invalidDocument',
    title: 'Invalid Document',
    message: 'Please select a supported document',
  }),
  invalidMedia: (): UploadProblem => ({
    code: 'invalidMedia',
    title: 'Invalid Media',
    message: 'Please select a supported video or audio file',
  }),
  invalidAttachment: (): UploadProblem => ({
    code: 'invalidAttachment',
    title: 'Invalid Attachment',
    message: 'Please select an image, a video, an audio file or a document',
  }),
}

const allowed: Record<UploadKind, readonly string[]> = {
  image: imageExtensions,
  spreadsheet: spreadsheetExtensions,
  document: documentExtensions,
  media: mediaExtensions,
}
const wrongType: Record<UploadKind, () => UploadProblem> = {
  image: problems.invalidImage,
  spreadsheet: problems.invalidExcel,
  document: problems.invalidDocument,
  media: problems.invalidMedia,
}

/** The checks a name and a size allow, before any byte is read. */
export function checkUpload(
  kind: UploadKind,
  fileName: string,
  size: number | undefined,
  limitKb = DEFAULT_MAX_FILE_KB,
): UploadProblem | null {
  if (!allowed[kind].includes(extensionOf(fileName))) return wrongType[kind]()
  if (size !== undefined && size > limitKb * 1024) return problems.fileSize(limitKb)
  return null
}

export function problemForKind(kind: UploadKind) {
  return wrongType[kind]()
}
