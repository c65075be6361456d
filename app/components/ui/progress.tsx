/**
 * How far something is done, in percent: a meter with the number written beside it, so the value
 * is read as text too. `labelledBy` names the heading it measures.
 */
export function Progress({
  percent,
  text,
  labelledBy,
  'data-testid': testId,
}: {
  percent: number
  text: string
  labelledBy: string
  'data-testid'?: string
}) {
  return (
    <div className="ui-progress">
      <meter
        min={0}
        max={100}
        low={50}
        high={99}
        optimum={100}
        value={percent}
        aria-labelledby={labelledBy}
      />
      <p className="ui-progress-text" data-testid={testId}>
        {text}
      </p>
    </div>
  )
}
