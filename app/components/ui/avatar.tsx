import { useEffect, useRef } from 'react'

export const DEFAULT_AVATAR = '/images/default-avatar.svg'

// docs/product.md §2: a failed image load shows the default avatar. The default is also the element's CSS
// background, so a broken image still shows it before (or without) JavaScript.
export function Avatar({
  src,
  alt,
  size = 36,
  className = '',
}: {
  src: string | null | undefined
  alt: string
  size?: number
  className?: string
}) {
  const ref = useRef<HTMLImageElement>(null)
  useEffect(() => {
    // The error may have fired before hydration, when React was not listening yet.
    const img = ref.current
    if (img && img.complete && img.naturalWidth === 0 && !img.src.endsWith(DEFAULT_AVATAR))
      img.src = DEFAULT_AVATAR
  }, [src])
  return (
    <img
      ref={ref}
      className={`avatar ${className}`}
      src={src || DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      onError={(e) => {
        if (!e.currentTarget.src.endsWith(DEFAULT_AVATAR)) e.currentTarget.src = DEFAULT_AVATAR
      }}
    />
  )
}
