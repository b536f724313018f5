/**
 * The JSON text of a message from the web bridge: text as it came, or a binary message (the
 * BRIDGE_DEFLATE_PROTOCOL) inflated from raw DEFLATE with the browser's DecompressionStream.
 */
export async function messageText(data: unknown): Promise<string> {
  if (typeof data === 'string') return data;
  const blob = data instanceof Blob ? data : new Blob([data as ArrayBuffer]);
  return new Response(blob.stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
}
