import { ruleLabel } from '../cutoff-label';
import { formatScore } from '../format';

interface Props {
  /** Scores sorted best first (the cutoff's curve). */
  readonly curve: readonly number[];
  /** The cut falls after this many candidates. */
  readonly position: number;
  /** Where the elbow fell before the bounds (differs from `position` when a bound moved the cut). */
  readonly elbow: number;
  readonly rule: string;
}

const W = 360;
const H = 180;
const PAD = { left: 40, right: 12, top: 12, bottom: 30 };

/** Chart geometry, exported for tests: point positions and the cut line's x. */
export function chartGeometry(curve: readonly number[], position: number) {
  const n = curve.length;
  const max = Math.max(...curve, 0);
  const min = Math.min(...curve, 0);
  const span = max - min || 1;
  const x = (i: number): number => PAD.left + (n <= 1 ? 0 : (i / (n - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number): number => PAD.top + (1 - (v - min) / span) * (H - PAD.top - PAD.bottom);
  const points = curve.map((v, i) => ({ x: x(i), y: y(v), v }));
  // Between the last kept point and the first dropped one.
  const cutX = position <= 0 ? x(0) : position >= n ? x(n - 1) : (x(position - 1) + x(position)) / 2;
  return { points, cutX, max, min, x, y };
}

/**
 * The selection scores, sorted, with the cutoff marked: a hand-drawn SVG (no chart library).
 * Kept candidates are filled dots left of the cut line, dropped ones hollow to its right.
 */
export function ScoreChart({ curve, position, elbow, rule }: Props) {
  if (curve.length === 0) return <p className="muted">No scores to plot.</p>;
  const { points, cutX, max, min } = chartGeometry(curve, position);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const description =
    `${curve.length} candidates' scores from ${formatScore(curve[0])} down to ${formatScore(curve[curve.length - 1])}; ` +
    `the cut keeps the first ${position} (${ruleLabel(rule, position, elbow)}).`;
  return (
    <figure className="score-chart" data-testid="score-chart" data-cut={position}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="score-chart-title score-chart-desc">
        <title id="score-chart-title">Selection scores, sorted, with the cutoff</title>
        <desc id="score-chart-desc">{description}</desc>
        <line className="axis" x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} />
        <line className="axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} />
        <text className="tick" x={PAD.left - 4} y={PAD.top + 4} textAnchor="end">
          {max.toFixed(2)}
        </text>
        <text className="tick" x={PAD.left - 4} y={H - PAD.bottom} textAnchor="end">
          {min.toFixed(2)}
        </text>
        <text className="tick" x={PAD.left} y={H - 8}>
          1
        </text>
        <text className="tick" x={W - PAD.right} y={H - 8} textAnchor="end">
          {curve.length}
        </text>
        <text className="tick" x={(PAD.left + W - PAD.right) / 2} y={H - 8} textAnchor="middle">
          rank
        </text>
        <path className="curve" d={path} fill="none" />
        {points.map((p, i) => (
          <circle key={i} className={i < position ? 'dot kept' : 'dot dropped'} cx={p.x} cy={p.y} r={3} />
        ))}
        <line className="cut" x1={cutX} y1={PAD.top - 4} x2={cutX} y2={H - PAD.bottom} />
        <text className="cut-label" x={Math.min(cutX + 4, W - 60)} y={PAD.top + 6}>
          cutoff: {position}
        </text>
      </svg>
      <figcaption className="muted">{ruleLabel(rule, position, elbow)}.</figcaption>
    </figure>
  );
}
