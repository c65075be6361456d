// The name of a device in a person's list of browsers with push on (decision 337): pure, so a
// page's action can name the browser that sent it.
/** A short name of the browser and system from the User-Agent header, for the person's own list. */
export function deviceLabel(userAgent: string | null) {
  const ua = userAgent ?? ''
  const browser =
    [
      ['Edg/', 'Edge'],
      ['OPR/', 'Opera'],
      ['Firefox/', 'Firefox'],
      ['Chrom', 'Chrome'],
      ['Safari/', 'Safari'],
    ].find(([mark]) => ua.includes(mark!))?.[1] ?? 'Browser'
  const system = [
    ['Android', 'Android'],
    ['iPhone', 'iOS'],
    ['iPad', 'iOS'],
    ['Windows', 'Windows'],
    ['Mac OS X', 'macOS'],
    ['CrOS', 'ChromeOS'],
    ['Linux', 'Linux'],
  ].find(([mark]) => ua.includes(mark!))?.[1]
  return system ? `${browser} on ${system}` : browser
}
