// Small statistics helpers: medians and percentiles over plain number arrays.

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** {median, min, max, n} over the finite values. */
export function summarize(values) {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  return { median: median(v), min: Math.min(...v), max: Math.max(...v), n: v.length };
}
