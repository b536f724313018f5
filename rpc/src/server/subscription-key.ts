/** Subscriptions are keyed on (evt, args), args compared with their keys sorted. */
export function subscriptionKey(evt: string, args: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(args);
  if (keys.length === 0) return evt;
  keys.sort();
  return `${evt} ${JSON.stringify(keys.map((key) => [key, args[key]]))}`;
}
