/** The slope of the least-squares line through (x, y) points; NaN with fewer than two distinct x. */
export function leastSquaresSlope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (y - meanY);
  }
  return sxx === 0 ? NaN : sxy / sxx;
}
