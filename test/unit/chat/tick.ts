// The chat tests' wait for what an action started to reach the webview. The code under test handles an
// action in microtasks and ends by scheduling a flush 1 ms out; on a loaded machine that chain can outlast
// any fixed wait, so the second sleep starts once the first is over (after the chain has scheduled its
// flush), and its 2 ms lets that flush run first.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function tick(): Promise<void> {
  await sleep(5);
  await sleep(2);
}
