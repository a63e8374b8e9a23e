// The JSON-RPC answer in a Streamable HTTP response body: plain JSON, or the last `data:` line of an SSE stream
// (progress and log notifications come first, the answer last).
export function lastJsonRpcMessage(text: string): string {
  if (text.trimStart().startsWith('{')) return text;
  const data = text.split('\n').filter((line) => line.startsWith('data: '));
  return (data.at(-1) ?? '').slice(6);
}
